import type { EntityManager } from '@mikro-orm/postgresql';
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256, type Hex } from 'viem';
import type {
  Address,
  IntentMeta,
  KycClaimData,
  LedgerCall,
  LedgerIntent,
  LedgerLog,
  LedgerOutcomeHandler,
  ReceiptTransfers,
  TokenLedger,
  TokenTransfer,
  WalletFacts,
} from '../../ledger/token-ledger';
import { ChainSetup, ChainTransaction, FINAL_TX_STATUSES } from './chain-transaction.entity';
import type { ChainService } from './chain.service';
import { chainAway, chainNotReadable, isChainUnreachable } from './chain.errors';
import { CLAIM_ISSUER_ABI, IDENTITY_ABI, IDENTITY_REGISTRY_ABI, KYC_CLAIM_TOPIC, ONCHAINID, TOKEN_ABI } from './contracts';
import { encodeCall, transfersIn } from './ledger-calls';
import { closingBlock } from './closing-block';

/**
 * What the gateway's KYC claim says: the investor passed the distributor's identity verification,
 * until the expiry (seconds since the epoch, 0: none), in the claim's issue (a fresh issue signs
 * fresh data, so a renewed claim never carries a signature revoked before).
 */
const kycClaimData = (claim: KycClaimData): Hex =>
  encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [BigInt(Math.floor((claim.expiresAt?.getTime() ?? 0) / 1000)), BigInt(claim.issue)]);

const hex = (a: string) => a as Hex;

/**
 * The token ledger on ERC-3643 chains: the adapter behind src/ledger/token-ledger.ts. It turns
 * the domain's calls into T-REX and ONCHAINID calldata and intents of the chain service
 * (chain.service.ts), and its reads into contract calls; nothing else of the gateway knows viem,
 * the ABIs or calldata.
 */
export class ChainLedger implements TokenLedger {
  constructor(private readonly chain: ChainService) {}

  reads(chainId: string): boolean {
    return !!this.chain.chains.get(chainId);
  }

  writes(chainId: string): boolean {
    return this.chain.writes(chainId);
  }

  reachable(chainId: string): Promise<void> {
    return this.chain.reachable(chainId);
  }

  requireWritable(chainId: string): void {
    this.chain.writable(chainId);
  }

  intend(em: EntityManager, meta: IntentMeta, call: LedgerCall): LedgerIntent {
    return this.chain.enqueue(em, { ...meta, ...encodeCall(call) });
  }

  async prepareIdentities(chainId: string): Promise<void> {
    await this.chain.setup(chainId);
  }

  async intendIdentity(em: EntityManager, meta: IntentMeta): Promise<LedgerIntent> {
    const setup = await em.findOneOrFail(ChainSetup, { chainId: meta.chainId });
    const data = encodeDeployData({
      abi: ONCHAINID.IdentityProxy.abi,
      bytecode: ONCHAINID.IdentityProxy.bytecode,
      // Custodial: the agent key is the identity's management key.
      args: [setup.identityAuthority, this.chain.writable(meta.chainId).account!.address],
    });
    return this.chain.enqueue(em, { ...meta, to: null, data });
  }

  async intendKycClaim(em: EntityManager, meta: IntentMeta, identity: Address, claim: KycClaimData): Promise<LedgerIntent> {
    const chain = this.chain.writable(meta.chainId);
    const setup = await em.findOneOrFail(ChainSetup, { chainId: meta.chainId });
    const data = kycClaimData(claim);
    const digest = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }], [hex(identity), KYC_CLAIM_TOPIC, data]));
    const signature = await chain.account!.signMessage({ message: { raw: digest } });
    return this.chain.enqueue(em, {
      ...meta,
      to: identity,
      data: encodeFunctionData({ abi: IDENTITY_ABI, functionName: 'addClaim', args: [KYC_CLAIM_TOPIC, 1n, setup.claimIssuer, signature, data, ''] }),
    });
  }

  async intendKycRevocation(em: EntityManager, meta: IntentMeta, identity: Address): Promise<LedgerIntent> {
    this.chain.writable(meta.chainId);
    const setup = await em.findOneOrFail(ChainSetup, { chainId: meta.chainId });
    // ERC-735 names an issuer's claim on an identity keccak256(abi.encode(issuer, topic)); the claim
    // issuer reads its signature there when the revocation runs (intents run in order, so after
    // any claim queued before) and marks it revoked, which `isClaimValid` and so `isVerified` read.
    const claimId = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [setup.claimIssuer, KYC_CLAIM_TOPIC]));
    return this.chain.enqueue(em, {
      ...meta,
      to: setup.claimIssuer,
      data: encodeFunctionData({ abi: CLAIM_ISSUER_ABI, functionName: 'revokeClaim', args: [claimId, hex(identity)] }),
    });
  }

  async correlated(em: EntityManager, correlations: readonly string[]): Promise<Set<string>> {
    if (!correlations.length) return new Set();
    const intents = await em.find(ChainTransaction, { correlation: { $in: [...correlations] } });
    return new Set(intents.map((t) => t.correlation!));
  }

  async openIntents(em: EntityManager, walletId: string, purposes: readonly string[], except?: string): Promise<number> {
    return em.count(ChainTransaction, {
      walletId,
      purpose: { $in: [...purposes] },
      status: { $nin: [...FINAL_TX_STATUSES] },
      ...(except ? { id: { $ne: except } } : {}),
    });
  }

  onOutcome(purpose: string, handler: LedgerOutcomeHandler): void {
    this.chain.onOutcome(purpose, handler);
  }

  wake(): void {
    this.chain.wake();
  }

  async executeNow(chainId: string, purpose: string, call: LedgerCall, step: string): Promise<void> {
    await this.chain.execute({ chainId, purpose, ...encodeCall(call) }, step);
  }

  async estimateGas(chainId: string, call: LedgerCall): Promise<bigint> {
    const chain = this.chain.writable(chainId);
    const { to, data } = encodeCall(call);
    return chain.client.estimateGas({ account: chain.account!.address, to: hex(to), data });
  }

  headBlock(chainId: string): Promise<bigint> {
    return this.read(chainId)
      .getBlockNumber({ cacheTime: 0 })
      .catch(() => {
        throw chainAway(chainId);
      });
  }

  totalSupply(chainId: string, token: Address, atBlock?: bigint): Promise<bigint> {
    return this.read(chainId).readContract({ address: hex(token), abi: TOKEN_ABI, functionName: 'totalSupply', blockNumber: atBlock });
  }

  balanceOf(chainId: string, token: Address, wallet: Address, atBlock?: bigint): Promise<bigint> {
    return this.read(chainId).readContract({ address: hex(token), abi: TOKEN_ABI, functionName: 'balanceOf', args: [hex(wallet)], blockNumber: atBlock });
  }

  frozenTokens(chainId: string, token: Address, wallet: Address): Promise<bigint> {
    return this.read(chainId).readContract({ address: hex(token), abi: TOKEN_ABI, functionName: 'getFrozenTokens', args: [hex(wallet)] });
  }

  isFrozen(chainId: string, token: Address, wallet: Address): Promise<boolean> {
    return this.read(chainId).readContract({ address: hex(token), abi: TOKEN_ABI, functionName: 'isFrozen', args: [hex(wallet)] });
  }

  decimals(chainId: string, token: Address): Promise<number> {
    return this.read(chainId).readContract({ address: hex(token), abi: TOKEN_ABI, functionName: 'decimals' });
  }

  async registeredCountry(chainId: string, registry: Address, wallet: Address): Promise<number | null> {
    const ofRegistry = { address: hex(registry), abi: IDENTITY_REGISTRY_ABI } as const;
    const [registered, country] = await Promise.all([
      this.read(chainId).readContract({ ...ofRegistry, functionName: 'contains', args: [hex(wallet)] }),
      this.read(chainId).readContract({ ...ofRegistry, functionName: 'investorCountry', args: [hex(wallet)] }),
    ]);
    return registered ? country : null;
  }

  async walletFacts(chainId: string, token: { address: Address; registry: Address }, wallets: Address[]): Promise<Map<string, WalletFacts>> {
    const reads = this.handle(chainId).batchReads;
    const ofToken = { address: hex(token.address), abi: TOKEN_ABI } as const;
    const facts = new Map<string, WalletFacts>();
    // Every call at once: the client sends them in JSON-RPC batches (a few HTTP requests, not one per call).
    await Promise.all(
      wallets.map(async (wallet) => {
        const w = hex(wallet.toLowerCase());
        const [verified, frozen, balance] = await Promise.all([
          reads.readContract({ address: hex(token.registry), abi: IDENTITY_REGISTRY_ABI, functionName: 'isVerified', args: [w] }),
          reads.readContract({ ...ofToken, functionName: 'isFrozen', args: [w] }),
          reads.readContract({ ...ofToken, functionName: 'balanceOf', args: [w] }),
        ]);
        facts.set(w, { verified, frozen, balance });
      }),
    );
    return facts;
  }

  async receiptTransfers(chainId: string, hash: string, token: Address): Promise<ReceiptTransfers> {
    const chain = this.chain.chains.get(chainId);
    if (!chain) throw chainAway(chainId);
    const receipt = await chain.client.getTransactionReceipt({ hash: hex(hash) }).catch((err) => {
      if (isChainUnreachable(err)) throw chainAway(chainId);
      return null;
    });
    if (!receipt) return { found: false };
    return { found: true, ok: receipt.status === 'success', transfers: transfersIn(receipt.logs, token) };
  }

  transfersIn(logs: readonly LedgerLog[], token: Address): TokenTransfer[] {
    return transfersIn(logs, token);
  }

  closingBlock(chainId: string, closesAt: Date): Promise<{ number: bigint; timestamp: Date } | null> {
    return closingBlock(this.read(chainId), closesAt);
  }

  private handle(chainId: string) {
    const chain = this.chain.chains.get(chainId);
    if (!chain) throw chainNotReadable(chainId);
    return chain;
  }

  private read(chainId: string) {
    return this.handle(chainId).client;
  }
}
