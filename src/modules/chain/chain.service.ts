import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { ChainSetup, ChainTransaction, ChainTxStatus, FINAL_TX_STATUSES } from './chain-transaction.entity';
import type { ChainHandle, Chains } from './chains';
import {
  chainAway,
  chainNotReadable,
  chainNotWritable,
  chainUnavailable,
  decimalsMismatch,
  deploymentFailed,
  notAnErc3643Token,
  notRegistryAgent,
  notTokenAgent,
} from './chain.errors';
import {
  AGENT_ROLE_ABI,
  CLAIM_SIGNER_KEY,
  CTR_ABI,
  ECDSA_KEY_TYPE,
  IA_ABI,
  IDENTITY_REGISTRY_ABI,
  IDENTITY_REGISTRY_STORAGE_ABI,
  KYC_CLAIM_TOPIC,
  ONCHAINID,
  T_REX,
  TIR_ABI,
  TOKEN_ABI,
  CLAIM_ISSUER_ABI,
} from './contracts';
import type { ChainSender } from './sender';
import { OutcomeHandlers, type OutcomeHandler } from './outcomes';
import { currentPrincipal } from '../../common/request-scope';
import { encodeAbiParameters, keccak256 } from 'viem';

/** A write the gateway wants on a chain. */
export interface IntentInput {
  chainId: string;
  purpose: string;
  /** Null: a contract creation. */
  to: string | null;
  data: Hex;
  orderId?: string;
  walletId?: string;
  /** What it does, in words (a deployment's step). */
  step?: string;
  gasLimit?: bigint;
  /** Setup steps (deployments) need one block; business outcomes wait for the chain's depth. */
  confirmations?: number;
}

/** A suite the gateway deployed or verified: what a Token row records. */
export interface TokenOnChain {
  contractAddress: string;
  identityRegistry: string;
  identityStorage: string;
  decimals: number;
}

const lower = (a: string) => a.toLowerCase();

/**
 * The chain port: the one door of src/modules/chain/ for the rest of the gateway, which knows no
 * orders, wallets or share classes (it imports no domain module). What a module uses:
 *
 * - `enqueue(em, { chainId, purpose, to, data, orderId?, walletId? })` writes an intent into the
 *   caller's unit of work: it exists once the caller's transaction commits, with whatever else
 *   that transaction wrote, or not at all. Then `wake()` after the commit. The sender
 *   (sender.ts) checks the call, signs, sends, waits for the chain's confirmation depth.
 * - `onOutcome(purpose, handler)`, once at wiring (src/services.ts): the handler declares what
 *   an intent of that purpose (`settlement.mint`) or family (`settlement`) means, in the
 *   transaction that makes the intent final, so each outcome is declared exactly once; a handler
 *   that throws rolls it back and the intent's outcome is declared again on the next pass.
 * - reads: `chains` (clients, agent keys), `writes`, `writable`, `reachable`; and for ops
 *   `execute` (one intent waited for), `setup`, `deploySuite`, `verifyToken`.
 */
export class ChainService {
  private setupRunning = new Map<string, Promise<ChainSetup>>();
  private readonly outcomes = new OutcomeHandlers();

  constructor(
    private readonly orm: MikroORM,
    readonly chains: Chains,
    private readonly sender: () => ChainSender | null,
  ) {}

  /** The chain, which must have an agent key. */
  writable(chainId: string): ChainHandle {
    const chain = this.chains.get(chainId);
    if (!chain) throw chainNotReadable(chainId);
    if (!chain.account) throw chainNotWritable(chainId);
    return chain;
  }

  /** Whether the gateway writes to this chain (its transactions, its whitelist, its settlements). */
  writes(chainId: string): boolean {
    return !!this.chains.get(chainId)?.account;
  }

  /**
   * A chain that is away is a 503 (SERVICE_UNAVAILABLE with retryAfter) before anything is
   * written: an operation that would queue, remove or record something for it asks this first.
   */
  async reachable(chainId: string): Promise<void> {
    const chain = this.chains.get(chainId);
    if (!chain) return;
    await chain.client.getBlockNumber({ cacheTime: 0 }).catch(() => {
      throw chainAway(chainId);
    });
  }

  /** Writes an intent into the caller's unit of work; the sender takes it once committed. */
  enqueue(em: EntityManager, input: IntentInput): ChainTransaction {
    const chain = this.writable(input.chainId);
    const now = new Date();
    return em.create(ChainTransaction, {
      chainId: chain.id,
      fromAddress: chain.agent!,
      purpose: input.purpose,
      orderId: input.orderId,
      walletId: input.walletId,
      step: input.step,
      toAddress: input.to ? lower(input.to) : undefined,
      data: input.data,
      gasLimit: input.gasLimit !== undefined ? String(input.gasLimit) : undefined,
      requiredConfirmations: input.confirmations ?? chain.config.confirmations,
      createdAt: now,
      updatedAt: now,
      requestedBy: currentPrincipal(),
    });
  }

  /** Registers what an outcome of `purpose` (or of every `purpose.*`) means: see the top of this file. */
  onOutcome(purpose: string, handler: OutcomeHandler): void {
    this.outcomes.on(purpose, handler);
  }

  /** The sender's one call when an intent becomes final: the registered handler declares its outcome. */
  readonly declareOutcome: OutcomeHandler = (em, tx, outcome) => this.outcomes.declare(em, tx, outcome);

  /** Wakes the sender after a commit that queued intents. */
  wake(): void {
    this.sender()?.wake();
  }

  /**
   * One intent, waited for to its confirmation depth: ops' deployments, which need each address
   * before the next step. A revert throws with the contract's reason.
   */
  async execute(input: IntentInput, step: string, timeoutMs = 120_000): Promise<ChainTransaction> {
    const em = this.orm.em.fork();
    const intent = this.enqueue(em, { confirmations: 1, step, ...input });
    await em.flush();
    const sender = this.sender();
    if (!sender) throw chainUnavailable(input.chainId, 'the chain sender is not running');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await sender.passed();
      const row = await this.orm.em.fork().findOneOrFail(ChainTransaction, { id: intent.id });
      if (row.status === ChainTxStatus.confirmed) return row;
      if (FINAL_TX_STATUSES.includes(row.status)) throw deploymentFailed(input.chainId, step, row.revertReason ?? row.status);
      if (Date.now() > deadline) throw chainUnavailable(input.chainId, row.lastError ?? `${step} not confirmed in time`);
      if (row.lastError) await new Promise((r) => setTimeout(r, 200));
    }
  }

  private async deploy(chainId: string, step: string, artifact: { abi: Abi; bytecode: Hex }, args: unknown[]): Promise<string> {
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args });
    const tx = await this.execute({ chainId, purpose: 'deploy', to: null, data }, step);
    return tx.contractAddress!;
  }

  private async call(chainId: string, step: string, to: string, abi: Abi, functionName: string, args: unknown[]): Promise<void> {
    await this.execute({ chainId, purpose: 'deploy', to, data: encodeFunctionData({ abi, functionName, args }) }, step);
  }

  /**
   * What the gateway deploys once per chain (T-REX's deploy-full-suite fixture, steps 1–2 and the
   * ONCHAINID side): the six T-REX implementations and their implementation authority, the
   * ONCHAINID identity implementation and its authority, the gateway's claim issuer (the agent
   * key signs claims), and the identity registry storage its tokens share.
   */
  async setup(chainId: string): Promise<ChainSetup> {
    const existing = await this.orm.em.fork().findOne(ChainSetup, { chainId });
    if (existing) return existing;
    const running = this.setupRunning.get(chainId);
    if (running) return running;
    const p = this.deploySetup(chainId).finally(() => this.setupRunning.delete(chainId));
    this.setupRunning.set(chainId, p);
    return p;
  }

  private async deploySetup(chainId: string): Promise<ChainSetup> {
    const chain = this.writable(chainId);
    const agent = chain.agent!;
    const impl = {
      tokenImplementation: await this.deploy(chainId, 'Token implementation', T_REX.Token, []),
      ctrImplementation: await this.deploy(chainId, 'ClaimTopicsRegistry implementation', T_REX.ClaimTopicsRegistry, []),
      irImplementation: await this.deploy(chainId, 'IdentityRegistry implementation', T_REX.IdentityRegistry, []),
      irsImplementation: await this.deploy(chainId, 'IdentityRegistryStorage implementation', T_REX.IdentityRegistryStorage, []),
      tirImplementation: await this.deploy(chainId, 'TrustedIssuersRegistry implementation', T_REX.TrustedIssuersRegistry, []),
      mcImplementation: await this.deploy(chainId, 'ModularCompliance implementation', T_REX.ModularCompliance, []),
    };
    const trexAuthority = await this.deploy(chainId, 'TREXImplementationAuthority', T_REX.TREXImplementationAuthority, [
      true,
      '0x0000000000000000000000000000000000000000',
      '0x0000000000000000000000000000000000000000',
    ]);
    await this.call(chainId, 'addAndUseTREXVersion', trexAuthority, IA_ABI, 'addAndUseTREXVersion', [{ major: 4, minor: 0, patch: 0 }, impl]);
    const identityImpl = await this.deploy(chainId, 'Identity implementation', ONCHAINID.Identity, [agent, true]);
    const identityAuthority = await this.deploy(chainId, 'ONCHAINID ImplementationAuthority', ONCHAINID.ImplementationAuthority, [identityImpl]);
    const claimIssuer = await this.deploy(chainId, 'ClaimIssuer', ONCHAINID.ClaimIssuer, [agent]);
    await this.call(chainId, 'ClaimIssuer.addKey', claimIssuer, CLAIM_ISSUER_ABI, 'addKey', [
      keccak256(encodeAbiParameters([{ type: 'address' }], [agent])),
      CLAIM_SIGNER_KEY,
      ECDSA_KEY_TYPE,
    ]);
    const identityStorage = await this.deploy(chainId, 'IdentityRegistryStorageProxy', T_REX.IdentityRegistryStorageProxy, [trexAuthority]);
    const em = this.orm.em.fork();
    const setup = em.create(ChainSetup, {
      chainId,
      agentAddress: agent,
      trexAuthority,
      identityAuthority,
      claimIssuer,
      identityStorage,
      createdAt: new Date(),
    });
    await em.flush();
    return setup;
  }

  /**
   * A full ERC-3643 suite for one token (the fixture's step 3 and wiring): claim topics and
   * trusted issuers registries, compliance (no modules), identity registry over the chain's
   * shared storage, the token proxy; the agent key as agent of token and registry, the token as
   * agent of its registry (for `recoveryAddress`), the KYC topic trusted from the gateway's claim
   * issuer; then `unpause` (tokens are born paused).
   */
  async deploySuite(chainId: string, token: { name: string; symbol: string; decimals: number }): Promise<TokenOnChain> {
    const chain = this.writable(chainId);
    const s = await this.setup(chainId);
    const ctr = await this.deploy(chainId, 'ClaimTopicsRegistryProxy', T_REX.ClaimTopicsRegistryProxy, [s.trexAuthority]);
    const tir = await this.deploy(chainId, 'TrustedIssuersRegistryProxy', T_REX.TrustedIssuersRegistryProxy, [s.trexAuthority]);
    const mc = await this.deploy(chainId, 'ModularComplianceProxy', T_REX.ModularComplianceProxy, [s.trexAuthority]);
    const ir = await this.deploy(chainId, 'IdentityRegistryProxy', T_REX.IdentityRegistryProxy, [s.trexAuthority, tir, ctr, s.identityStorage]);
    const address = await this.deploy(chainId, 'TokenProxy', T_REX.TokenProxy, [
      s.trexAuthority,
      ir,
      mc,
      token.name,
      token.symbol,
      token.decimals,
      '0x0000000000000000000000000000000000000000',
    ]);
    await this.call(chainId, 'bindIdentityRegistry', s.identityStorage, IDENTITY_REGISTRY_STORAGE_ABI, 'bindIdentityRegistry', [ir]);
    await this.call(chainId, 'token.addAgent', address, AGENT_ROLE_ABI, 'addAgent', [chain.agent]);
    await this.call(chainId, 'identityRegistry.addAgent', ir, AGENT_ROLE_ABI, 'addAgent', [chain.agent]);
    await this.call(chainId, 'identityRegistry.addAgent(token)', ir, AGENT_ROLE_ABI, 'addAgent', [address]);
    await this.call(chainId, 'addClaimTopic', ctr, CTR_ABI, 'addClaimTopic', [KYC_CLAIM_TOPIC]);
    await this.call(chainId, 'addTrustedIssuer', tir, TIR_ABI, 'addTrustedIssuer', [s.claimIssuer, [KYC_CLAIM_TOPIC]]);
    await this.call(chainId, 'unpause', address, TOKEN_ABI, 'unpause', []);
    return { contractAddress: address, identityRegistry: ir, identityStorage: lower(s.identityStorage), decimals: token.decimals };
  }

  /**
   * An existing token the gateway is to settle with: it must answer the ERC-3643 interface, and
   * the agent key must be an agent of the token and of its identity registry.
   */
  async verifyToken(chainId: string, address: string, decimals: number): Promise<TokenOnChain> {
    const chain = this.writable(chainId);
    const read = <T>(to: string, abi: Abi, functionName: string, args: unknown[] = []) =>
      chain.client.readContract({ address: to as Hex, abi, functionName, args }) as Promise<T>;
    let ir: string;
    let onChainDecimals: number;
    try {
      await chain.client.getChainId();
    } catch (err) {
      throw chainUnavailable(chainId, (err as Error).message.split('\n')[0]);
    }
    try {
      ir = await read<string>(address, TOKEN_ABI, 'identityRegistry');
      await read<string>(address, TOKEN_ABI, 'compliance');
      onChainDecimals = Number(await read<number>(address, TOKEN_ABI, 'decimals'));
    } catch {
      throw notAnErc3643Token(address);
    }
    if (onChainDecimals !== decimals) throw decimalsMismatch(onChainDecimals, decimals);
    if (!(await read<boolean>(address, AGENT_ROLE_ABI, 'isAgent', [chain.account!.address]).catch(() => false))) throw notTokenAgent(address, chain.agent!);
    if (!(await read<boolean>(ir, AGENT_ROLE_ABI, 'isAgent', [chain.account!.address]).catch(() => false))) throw notRegistryAgent(ir, chain.agent!);
    const storage = await read<string>(ir, IDENTITY_REGISTRY_ABI, 'identityStorage').catch(() => ir);
    return { contractAddress: address, identityRegistry: lower(ir), identityStorage: lower(storage), decimals };
  }
}
