import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Hex } from 'viem';
import { ChainSetup, ChainTransaction, ChainTxStatus, FINAL_TX_STATUSES } from './chain-transaction.entity';
import type { ChainHandle, Chains } from './chains';
import { chainAway, chainNotReadable, chainNotWritable, chainUnavailable, deploymentFailed } from './chain.errors';
import type { ChainSender } from './sender';
import { OutcomeHandlers, type OutcomeHandler } from './outcomes';
import { currentPrincipal } from '../../common/request-scope';
import { SuiteDeployment, type TokenOnChain } from './suite-deployment';
import { verifyToken } from './token-verification';
import { ComplianceModules, type ComplianceRules } from './compliance-modules';
import { sequenceOutcome, startSequence } from './intent-sequence';

/** A write the gateway wants on a chain. */
export interface IntentInput {
  chainId: string;
  purpose: string;
  /** Null: a contract creation. */
  to: string | null;
  data: Hex;
  /** The domain's opaque key (one intent per value). */
  correlation?: string;
  walletId?: string;
  /** What it does, in words (a deployment's step). */
  step?: string;
  gasLimit?: bigint;
  /** Setup steps (deployments) need one block; business outcomes wait for the chain's depth. */
  confirmations?: number;
}

export type { TokenOnChain } from './suite-deployment';

const lower = (a: string) => a.toLowerCase();

/**
 * The chain port: the one door of src/modules/chain/ for the rest of the gateway, which knows no
 * orders, wallets or share classes (it imports no domain module). What a module uses:
 *
 * - `enqueue(em, { chainId, purpose, to, data, correlation?, walletId? })` writes an intent into the
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
  private readonly deployment: SuiteDeployment;
  private readonly compliance: ComplianceModules;

  constructor(
    private readonly orm: MikroORM,
    readonly chains: Chains,
    private readonly sender: () => ChainSender | null,
  ) {
    const write = (chainId: string, step: string, to: Hex | null, data: Hex) => this.execute({ chainId, purpose: 'deploy', to, data }, step);
    this.deployment = new SuiteDeployment(orm, write);
    this.compliance = new ComplianceModules(orm, write);
    // A token's compliance change runs as a sequence of intents, each after the one before (intent-sequence.ts).
    this.outcomes.on(
      'compliance',
      sequenceOutcome((em, input) => this.enqueue(em, input)),
    );
  }

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
      correlation: input.correlation,
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

  /**
   * What the gateway deploys once per chain (T-REX's deploy-full-suite fixture, steps 1–2 and the
   * ONCHAINID side): the six T-REX implementations and their implementation authority, the
   * ONCHAINID identity implementation and its authority, the gateway's claim issuer (the agent
   * key signs claims), and the identity registry storage its tokens share; then T-REX's factory
   * (suite-deployment.ts `factory`), which deploys every token after.
   */
  async setup(chainId: string): Promise<ChainSetup> {
    const existing = await this.orm.em.fork().findOne(ChainSetup, { chainId });
    if (existing) return existing;
    const running = this.setupRunning.get(chainId);
    if (running) return running;
    const chain = this.writable(chainId);
    const p = this.deployment
      .deploySetup(chainId, chain.agent!)
      .then(async (setup) => {
        await this.deployment.factory(chain, chain.agent!, setup);
        return setup;
      })
      .finally(() => this.setupRunning.delete(chainId));
    this.setupRunning.set(chainId, p);
    return p;
  }

  /**
   * A full ERC-3643 suite for one token, over the chain's set-up (suite-deployment.ts). `salt`
   * names the token for good: a second call with it returns the suite the first deployed.
   */
  async deploySuite(
    chainId: string,
    salt: string,
    token: { name: string; symbol: string; decimals: number },
    rules: ComplianceRules | null = null,
  ): Promise<TokenOnChain> {
    const chain = this.writable(chainId);
    const setup = await this.setup(chainId);
    const compliance = await this.compliance.forDeployment(chainId, rules, token.decimals);
    return this.deployment.deploySuite(chain, chain.agent!, setup, salt, token, compliance);
  }

  /**
   * Takes a deployed token's compliance modules from the rules `before` to `rules`, in the caller's
   * unit of work: a sequence of `compliance` intents, each queued when the one before is
   * confirmed (compliance-modules.ts `changeSteps`). `holders`: the wallets that may hold it.
   */
  async changeCompliance(
    em: EntityManager,
    token: { chainId: string; address: string; decimals: number; holders: string[] },
    before: ComplianceRules | null,
    rules: ComplianceRules | null,
    subject: string,
  ): Promise<void> {
    const chain = this.writable(token.chainId);
    const steps = await this.compliance.changeSteps(chain, token, before, rules);
    await startSequence(em, (tem, input) => this.enqueue(tem, input), { chainId: token.chainId, purpose: 'compliance', subject, steps });
  }

  /**
   * An existing token the gateway is to settle with: it must answer the ERC-3643 interface, and
   * the agent key must be an agent of the token and of its identity registry.
   */
  async verifyToken(chainId: string, address: string, decimals: number): Promise<TokenOnChain> {
    return verifyToken(this.writable(chainId), address, decimals);
  }
}
