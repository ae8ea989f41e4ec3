import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { conflict } from '../../common/errors';
import { DEFAULT_RECONCILIATION_INTERVAL_MS } from '../../config';
import { logger } from '../../common/logger';
import { shortMessage } from '../../common/redact';
import { Dec, decimalString } from '../../common/money';
import { fromUnits } from '../../common/units';
import { WakeLoop } from '../../events/wake-loop';
import type { TokenLedger } from '../../ledger/token-ledger';
import { Token } from '../token';
import { ChainMovement, ChainMovementKind } from '../chain';
import { recordRun, registerBalances, shareClassesWithToken, walletsOnChain } from './reconciliation.queries';

/** A holder whose register balance and on-chain balance differ (investorId null: a wallet the register does not know). */
export interface ReconciliationDifference {
  investorId: string | null;
  wallets: string[];
  registerBalance: string;
  chainBalance: string;
  /** chain − register. */
  difference: string;
  /** The movements the follower saw for this holder that the register did not follow (or that moved it). */
  movements: ChainMovement[];
}

/** One holder as compared, equal or not: each wallet's balanceOf at the pinned block. */
export interface ReconciliationHolder {
  investorId: string | null;
  wallets: { address: string; balance: string }[];
  registerBalance: string;
  chainBalance: string;
  difference: string;
}

export interface ReconciliationResult {
  shareClassId: string;
  chainId: string;
  tokenAddress: string;
  /** Every balance was read at this block. */
  blockNumber: string;
  totalSupply: string;
  registerTotal: string;
  /** totalSupply − registerTotal. */
  supplyDifference: string;
  /** Holders compared (investors with a holding or a wallet on the chain, and wallets the follower saw). */
  holdersCompared: number;
  differences: ReconciliationDifference[];
  /** Every holder compared, equal or not (the console's per-wallet view). */
  holders: ReconciliationHolder[];
  /** Σ |difference| over the holders: 0 when the register is true to the chain. */
  totalDifference: string;
  /**
   * Transfers to or from a wallet the register does not know (the follower's `unknown_holder`
   * movements still on chain), each with its block and hash: the register cannot say who holds
   * those tokens. Counted by the alert metric `register_unknown_wallet_transfers`.
   */
  unknownWalletTransfers: UnknownWalletTransfer[];
}

export interface UnknownWalletTransfer {
  blockNumber: string;
  transactionHash: string;
  fromAddress: string;
  toAddress: string;
  tokens: string;
}

/**
 * Reconciliation of the register with the chain: for every holder of a share class, the register's
 * balance (per investor) against `balanceOf` of each of its wallets on the primary token's chain,
 * all read at one pinned block, and the token's `totalSupply` against the register's total. Every
 * difference comes with the movements the chain follower saw for that holder (a mint behind the
 * gateway's back, a transfer to a wallet the register does not know…).
 */
export class Reconciliation {
  constructor(private readonly ledger: TokenLedger) {}

  /** The share class's token against the register; its caller has found the share class (its id is not checked here). */
  async run(em: EntityManager, shareClassId: string): Promise<ReconciliationResult> {
    const token = await em.findOne(Token, { shareClass: shareClassId }, { orderBy: { isPrimary: 'desc' } });
    if (!token || !this.ledger.reads(token.chainId)) throw conflict(`share class ${shareClassId} has no token on a chain the gateway reads`);
    const blockNumber = await this.ledger.headBlock(token.chainId);
    const units = (v: bigint) => fromUnits(v, token.decimals);

    const register = new Map((await registerBalances(em, shareClassId)).map((r) => [r.investor_id, new Dec(r.balance)]));
    const walletRows = await walletsOnChain(em, token.chainId, shareClassId);
    const movements = await em.find(ChainMovement, { shareClassId, undoneAt: null }, { orderBy: { blockNumber: 'asc', logIndex: 'asc' } });
    const holders = new Map<string, { investorId: string | null; wallets: Set<string> }>();
    const holderOf = (key: string, investorId: string | null) => holders.get(key) ?? holders.set(key, { investorId, wallets: new Set() }).get(key)!;
    for (const id of register.keys()) holderOf(id, id);
    for (const w of walletRows) holderOf(w.investor_id, w.investor_id).wallets.add(w.address);
    const known = new Set(walletRows.map((w) => w.address));
    for (const m of movements) {
      for (const address of [m.fromAddress, m.toAddress]) {
        if (address === '0x0000000000000000000000000000000000000000' || known.has(address)) continue;
        holderOf(`wallet:${address}`, null).wallets.add(address);
      }
    }

    const balances = new Map<string, bigint>();
    for (const address of new Set([...holders.values()].flatMap((h) => [...h.wallets])))
      balances.set(address, await this.ledger.balanceOf(token.chainId, token.contractAddress, address, blockNumber));
    const totalSupply = await this.ledger.totalSupply(token.chainId, token.contractAddress, blockNumber);
    const differences: ReconciliationDifference[] = [];
    const compared: ReconciliationHolder[] = [];
    let total = new Dec(0);
    for (const h of holders.values()) {
      const onChain = new Dec(units([...h.wallets].reduce((s, w) => s + (balances.get(w) ?? 0n), 0n)));
      const held = h.investorId ? (register.get(h.investorId) ?? new Dec(0)) : new Dec(0);
      const diff = onChain.minus(held);
      compared.push({
        investorId: h.investorId,
        wallets: [...h.wallets].map((address) => ({ address, balance: decimalString(units(balances.get(address) ?? 0n)) })),
        registerBalance: decimalString(held),
        chainBalance: decimalString(onChain),
        difference: decimalString(diff),
      });
      if (diff.isZero()) continue;
      total = total.plus(diff.abs());
      const mine = movements.filter(
        (m) =>
          (h.investorId && (m.fromInvestorId === h.investorId || m.toInvestorId === h.investorId)) ||
          h.wallets.has(m.fromAddress) ||
          h.wallets.has(m.toAddress),
      );
      differences.push({
        investorId: h.investorId,
        wallets: [...h.wallets],
        registerBalance: decimalString(held),
        chainBalance: decimalString(onChain),
        difference: decimalString(diff),
        movements: mine,
      });
    }
    const unknownWalletTransfers = movements
      .filter((m) => m.kind === ChainMovementKind.unknown_holder)
      .map((m) => ({
        blockNumber: m.blockNumber,
        transactionHash: m.transactionHash,
        fromAddress: m.fromAddress,
        toAddress: m.toAddress,
        tokens: decimalString(m.tokens),
      }));
    if (unknownWalletTransfers.length)
      logger.warn({ shareClassId, unknownWalletTransfers }, 'reconciliation: transfers to or from wallets the register does not know');
    const registerTotal = [...register.values()].reduce((s, b) => s.plus(b), new Dec(0));
    return {
      shareClassId,
      chainId: token.chainId,
      tokenAddress: token.contractAddress,
      blockNumber: String(blockNumber),
      totalSupply: decimalString(units(totalSupply)),
      registerTotal: decimalString(registerTotal),
      supplyDifference: decimalString(new Dec(units(totalSupply)).minus(registerTotal)),
      holdersCompared: holders.size,
      differences,
      holders: compared,
      totalDifference: decimalString(total),
      unknownWalletTransfers,
    };
  }
}

/**
 * The scheduled reconciliation: every share class with a token on a readable chain, every
 * `intervalMs` (daily by default), its result recorded (`reconciliation_run`) for /metrics'
 * `register_chain_difference` and `register_unknown_wallet_transfers`, and for ops.
 */
export class ReconciliationSchedule {
  private readonly loop: WakeLoop;

  constructor(
    private readonly orm: MikroORM,
    private readonly reconciliation: Reconciliation,
    private readonly clock: { now(): Date },
    intervalMs = DEFAULT_RECONCILIATION_INTERVAL_MS,
  ) {
    this.loop = new WakeLoop(
      'reconciliation',
      async () => {
        await this.runAll();
        return false;
      },
      intervalMs,
    );
  }

  private started = false;

  /** Starts the schedule (a first run at once); a second call changes nothing. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.loop.start();
  }

  stop(): Promise<void> {
    this.started = false;
    return this.loop.stop();
  }

  /** One run over every share class with a token; each result recorded on its own. */
  async runAll(): Promise<number> {
    const em = this.orm.em.fork();
    const ids = await shareClassesWithToken(em);
    let done = 0;
    for (const id of ids) {
      try {
        const r = await this.reconciliation.run(this.orm.em.fork(), id);
        // The record keeps the differences only: the equal holders are the chain's to read again.
        const result = { ...r, holders: undefined, differences: r.differences.map((d) => ({ ...d, movements: d.movements.map((m) => m.transactionHash) })) };
        await recordRun(this.orm.em.fork(), { ...r, shareClassId: id, result, at: this.clock.now() });
        done++;
      } catch (err) {
        logger.warn({ err: shortMessage(err), shareClassId: id }, 'scheduled reconciliation of a share class failed');
      }
    }
    return done;
  }
}
