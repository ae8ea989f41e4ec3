import type { MikroORM } from '@mikro-orm/postgresql';
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256, parseEventLogs, zeroAddress, type Hex } from 'viem';
import type { ChainHandle } from './chains';
import { ChainSetup, type ChainTransaction } from './chain-transaction.entity';
import {
  CLAIM_ISSUER_ABI,
  CLAIM_SIGNER_KEY,
  ID_FACTORY_ABI,
  ECDSA_KEY_TYPE,
  IA_ABI,
  IDENTITY_REGISTRY_STORAGE_ABI,
  KYC_CLAIM_TOPIC,
  ONCHAINID,
  T_REX,
  TOKEN_ABI,
  TREX_FACTORY_ABI,
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
  private readonly factoryRunning = new Map<string, Promise<Hex>>();

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
   * The chain's TREXFactory, set up once (T-REX's factory fixture): an ONCHAINID IdFactory over
   * the identity authority, the factory over both authorities, the factory allowed to create token
   * identities, and the shared identity registry storage handed to the factory (it binds each new
   * identity registry, which only the storage's owner may). The storage's owner is therefore the
   * chain's answer to "is the factory set up": read from the chain, it survives a crash between
   * the steps (a retry deploys another factory, and hands the storage over once).
   */
  async factory(chain: ChainHandle, agent: Hex, s: ChainSetup): Promise<Hex> {
    const chainId = chain.config.chainId;
    const owner = await chain.client.readContract({ address: s.identityStorage, abi: IDENTITY_REGISTRY_STORAGE_ABI, functionName: 'owner' });
    if (owner.toLowerCase() !== agent.toLowerCase()) return owner;
    const running = this.factoryRunning.get(chainId);
    if (running) return running;
    const p = (async () => {
      const idFactory = await this.deploy(chainId, 'IdFactory', encodeDeployData({ ...ONCHAINID.IdFactory, args: [s.identityAuthority] }));
      const factory = await this.deploy(chainId, 'TREXFactory', encodeDeployData({ ...T_REX.TREXFactory, args: [s.trexAuthority, idFactory] }));
      await this.call(
        chainId,
        'IdFactory.addTokenFactory',
        idFactory,
        encodeFunctionData({ abi: ID_FACTORY_ABI, functionName: 'addTokenFactory', args: [factory] }),
      );
      await this.call(
        chainId,
        'IdentityRegistryStorage.transferOwnership(TREXFactory)',
        s.identityStorage,
        encodeFunctionData({ abi: IDENTITY_REGISTRY_STORAGE_ABI, functionName: 'transferOwnership', args: [factory] }),
      );
      return factory;
    })().finally(() => this.factoryRunning.delete(chainId));
    this.factoryRunning.set(chainId, p);
    return p;
  }

  /**
   * A full ERC-3643 suite for one token, the way T-REX intends: one `deployTREXSuite` of the
   * chain's factory (token, identity registry over the shared storage, claim topics and trusted
   * issuers registries, the modular compliance with the modules the token's rules need bound and
   * set (compliance-modules.ts), the token's ONCHAINID; the agent key as owner
   * and as agent of token and registry, the token as agent of its registry, the KYC topic trusted
   * from the gateway's claim issuer), then `unpause` (tokens are born paused). `salt` names the
   * token for good: deploying it again (a retry after a crash) finds the suite the factory
   * already holds under it instead of failing "token already deployed".
   */
  async deploySuite(
    chain: ChainHandle,
    agent: Hex,
    s: ChainSetup,
    salt: string,
    token: { name: string; symbol: string; decimals: number },
    compliance: { complianceModules: Hex[]; complianceSettings: Hex[] } = { complianceModules: [], complianceSettings: [] },
  ): Promise<TokenOnChain> {
    const chainId = chain.config.chainId;
    const factory = await this.factory(chain, agent, s);
    const deployed = () => chain.client.readContract({ address: factory, abi: TREX_FACTORY_ABI, functionName: 'getToken', args: [salt] });
    let address = await deployed();
    if (address === zeroAddress) {
      const details = {
        owner: agent,
        name: token.name,
        symbol: token.symbol,
        decimals: token.decimals,
        irs: s.identityStorage,
        ONCHAINID: zeroAddress,
        irAgents: [agent],
        tokenAgents: [agent],
        ...compliance,
      };
      const claims = { claimTopics: [KYC_CLAIM_TOPIC], issuers: [s.claimIssuer], issuerClaims: [[KYC_CLAIM_TOPIC]] };
      const data = encodeFunctionData({ abi: TREX_FACTORY_ABI, functionName: 'deployTREXSuite', args: [salt, details, claims] });
      try {
        const tx = await this.write(chainId, 'TREXFactory.deployTREXSuite', factory, data);
        const receipt = await chain.client.getTransactionReceipt({ hash: tx.hash as Hex });
        const [event] = parseEventLogs({ abi: TREX_FACTORY_ABI, eventName: 'TREXSuiteDeployed', logs: receipt.logs });
        address = event.args._token;
      } catch (err) {
        // Sent before a crash, or by a concurrent request for the same token: the factory has it.
        address = await deployed();
        if (address === zeroAddress) throw err;
      }
    }
    const ofToken = { address, abi: TOKEN_ABI } as const;
    if (await chain.client.readContract({ ...ofToken, functionName: 'paused' }))
      await this.call(chainId, 'unpause', address, encodeFunctionData({ abi: TOKEN_ABI, functionName: 'unpause', args: [] }));
    const ir = await chain.client.readContract({ ...ofToken, functionName: 'identityRegistry' });
    return {
      contractAddress: address.toLowerCase(),
      identityRegistry: ir.toLowerCase(),
      identityStorage: s.identityStorage.toLowerCase(),
      decimals: token.decimals,
    };
  }
}
