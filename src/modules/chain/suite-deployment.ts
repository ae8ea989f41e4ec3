import type { MikroORM } from '@mikro-orm/postgresql';
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256, type Hex } from 'viem';
import { ChainSetup, type ChainTransaction } from './chain-transaction.entity';
import {
  AGENT_ROLE_ABI,
  CLAIM_ISSUER_ABI,
  CLAIM_SIGNER_KEY,
  CTR_ABI,
  ECDSA_KEY_TYPE,
  IA_ABI,
  IDENTITY_REGISTRY_STORAGE_ABI,
  KYC_CLAIM_TOPIC,
  ONCHAINID,
  T_REX,
  TIR_ABI,
  TOKEN_ABI,
} from './contracts';

/** A suite the gateway deployed or verified: what a Token row records. */
export interface TokenOnChain {
  contractAddress: string;
  identityRegistry: string;
  identityStorage: string;
  decimals: number;
}

/** One set-up write, waited for to its confirmation (ChainService.execute with purpose `deploy`). */
export type SetupWrite = (chainId: string, step: string, to: Hex | null, data: Hex) => Promise<ChainTransaction>;

/**
 * How the gateway deploys ERC-3643 suites: what a chain needs once, then what each token needs.
 * Every step is one intent waited for, so each address is known before the next step uses it.
 */
export class SuiteDeployment {
  constructor(
    private readonly orm: MikroORM,
    private readonly write: SetupWrite,
  ) {}

  /** A contract creation (`encodeDeployData`, typed by the contract's ABI), waited for: its address. */
  private async deploy(chainId: string, step: string, data: Hex): Promise<Hex> {
    const tx = await this.write(chainId, step, null, data);
    return tx.contractAddress! as Hex;
  }

  /** A set-up call (`encodeFunctionData`, typed by the contract's ABI), waited for. */
  private async call(chainId: string, step: string, to: Hex, data: Hex): Promise<void> {
    await this.write(chainId, step, to, data);
  }

  /**
   * What the gateway deploys once per chain (T-REX's deploy-full-suite fixture, steps 1–2 and the
   * ONCHAINID side): the six T-REX implementations and their implementation authority, the
   * ONCHAINID identity implementation and its authority, the gateway's claim issuer (the agent
   * key signs claims), and the identity registry storage its tokens share.
   */
  async deploySetup(chainId: string, agent: Hex): Promise<ChainSetup> {
    const impl = {
      tokenImplementation: await this.deploy(chainId, 'Token implementation', encodeDeployData(T_REX.Token)),
      ctrImplementation: await this.deploy(chainId, 'ClaimTopicsRegistry implementation', encodeDeployData(T_REX.ClaimTopicsRegistry)),
      irImplementation: await this.deploy(chainId, 'IdentityRegistry implementation', encodeDeployData(T_REX.IdentityRegistry)),
      irsImplementation: await this.deploy(chainId, 'IdentityRegistryStorage implementation', encodeDeployData(T_REX.IdentityRegistryStorage)),
      tirImplementation: await this.deploy(chainId, 'TrustedIssuersRegistry implementation', encodeDeployData(T_REX.TrustedIssuersRegistry)),
      mcImplementation: await this.deploy(chainId, 'ModularCompliance implementation', encodeDeployData(T_REX.ModularCompliance)),
    };
    const trexAuthority = await this.deploy(
      chainId,
      'TREXImplementationAuthority',
      encodeDeployData({
        ...T_REX.TREXImplementationAuthority,
        args: [true, '0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000000'],
      }),
    );
    await this.call(
      chainId,
      'addAndUseTREXVersion',
      trexAuthority,
      encodeFunctionData({
        abi: IA_ABI,
        functionName: 'addAndUseTREXVersion',
        args: [{ major: 4, minor: 0, patch: 0 }, impl],
      }),
    );
    const identityImpl = await this.deploy(chainId, 'Identity implementation', encodeDeployData({ ...ONCHAINID.Identity, args: [agent, true] }));
    const identityAuthority = await this.deploy(
      chainId,
      'ONCHAINID ImplementationAuthority',
      encodeDeployData({ ...ONCHAINID.ImplementationAuthority, args: [identityImpl] }),
    );
    const claimIssuer = await this.deploy(chainId, 'ClaimIssuer', encodeDeployData({ ...ONCHAINID.ClaimIssuer, args: [agent] }));
    await this.call(
      chainId,
      'ClaimIssuer.addKey',
      claimIssuer,
      encodeFunctionData({
        abi: CLAIM_ISSUER_ABI,
        functionName: 'addKey',
        args: [keccak256(encodeAbiParameters([{ type: 'address' }], [agent])), CLAIM_SIGNER_KEY, ECDSA_KEY_TYPE],
      }),
    );
    const identityStorage = await this.deploy(
      chainId,
      'IdentityRegistryStorageProxy',
      encodeDeployData({ ...T_REX.IdentityRegistryStorageProxy, args: [trexAuthority] }),
    );
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
  async deploySuite(chainId: string, agent: Hex, s: ChainSetup, token: { name: string; symbol: string; decimals: number }): Promise<TokenOnChain> {
    const ctr = await this.deploy(chainId, 'ClaimTopicsRegistryProxy', encodeDeployData({ ...T_REX.ClaimTopicsRegistryProxy, args: [s.trexAuthority] }));
    const tir = await this.deploy(chainId, 'TrustedIssuersRegistryProxy', encodeDeployData({ ...T_REX.TrustedIssuersRegistryProxy, args: [s.trexAuthority] }));
    const mc = await this.deploy(chainId, 'ModularComplianceProxy', encodeDeployData({ ...T_REX.ModularComplianceProxy, args: [s.trexAuthority] }));
    const ir = await this.deploy(
      chainId,
      'IdentityRegistryProxy',
      encodeDeployData({ ...T_REX.IdentityRegistryProxy, args: [s.trexAuthority, tir, ctr, s.identityStorage] }),
    );
    const address = await this.deploy(
      chainId,
      'TokenProxy',
      encodeDeployData({
        ...T_REX.TokenProxy,
        args: [s.trexAuthority, ir, mc, token.name, token.symbol, token.decimals, '0x0000000000000000000000000000000000000000'],
      }),
    );
    await this.call(
      chainId,
      'bindIdentityRegistry',
      s.identityStorage,
      encodeFunctionData({
        abi: IDENTITY_REGISTRY_STORAGE_ABI,
        functionName: 'bindIdentityRegistry',
        args: [ir],
      }),
    );
    await this.call(chainId, 'token.addAgent', address, encodeFunctionData({ abi: AGENT_ROLE_ABI, functionName: 'addAgent', args: [agent] }));
    await this.call(chainId, 'identityRegistry.addAgent', ir, encodeFunctionData({ abi: AGENT_ROLE_ABI, functionName: 'addAgent', args: [agent] }));
    await this.call(chainId, 'identityRegistry.addAgent(token)', ir, encodeFunctionData({ abi: AGENT_ROLE_ABI, functionName: 'addAgent', args: [address] }));
    await this.call(chainId, 'addClaimTopic', ctr, encodeFunctionData({ abi: CTR_ABI, functionName: 'addClaimTopic', args: [KYC_CLAIM_TOPIC] }));
    await this.call(
      chainId,
      'addTrustedIssuer',
      tir,
      encodeFunctionData({ abi: TIR_ABI, functionName: 'addTrustedIssuer', args: [s.claimIssuer, [KYC_CLAIM_TOPIC]] }),
    );
    await this.call(chainId, 'unpause', address, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'unpause', args: [] }));
    return { contractAddress: address, identityRegistry: ir, identityStorage: s.identityStorage.toLowerCase(), decimals: token.decimals };
  }
}
