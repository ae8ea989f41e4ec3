import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { logger } from '../../common/logger';
import { toUnits } from '../../common/units';
import { unfrozenLotsOf } from './settlement.queries';
import { type DealingService, plusDays } from '../dealing';
import { ShareClass } from '../share-class';
import { Token } from '../token';
import { ChainBatchOrder } from './chain-batch.entity';
import { orderOfCorrelation } from './order-correlation';
import type { BookedLot } from '../holding';
import type { LedgerCall, LedgerIntent, LedgerOutcome, TokenLedger } from '../../ledger/token-ledger';
import { LotFreeze, LotFreezeStatus } from './lot-freeze.entity';

/** The `lockup.` family of intents (this class registers their outcomes on the chain port). */
export const LOCK_UP_PURPOSES = ['lockup.freeze', 'lockup.unfreeze'] as const;
const MINTS = ['settlement.mint', 'settlement.batchMint'];
/** How many due lots one release transaction takes. */
const RELEASE_BATCH = 100;
/** How often the release job looks for lots that left lock-up (a minute: lock-up counts in days). */
export const DEFAULT_LOCK_UP_RELEASE_MS = 60_000;

/** T-REX's revert when asked to unfreeze more than is frozen (a burn or forced transfer released it first). */
const NOTHING_FROZEN = 'Amount should be less than or equal to frozen tokens';

interface Release {
  row: LotFreeze;
  units: bigint;
}

/**
 * Lock-up held by the token (T-REX partial freezes), so a holder's wallet cannot send tokens
 * still in lock-up to anyone (lots received by a forced transfer are frozen again at the receiver: `freezeReceived`):
 * - **Freeze at mint.** In the transaction that declares a mint's outcome (the same one that books
 *   the order's lot), each new lot still in lock-up gets a `lot_freeze` row and one intent
 *   freezes them all (`freezePartialTokens`, or `batchFreezePartialTokens` for a batch's lots) on
 *   the wallet they were minted to. The freeze cannot be queued beside the mint: the sender checks
 *   a call before signing it, and T-REX refuses to freeze tokens not yet there.
 * - **Release.** `releaseDue` (the scheduled job) takes due frozen lots under `skip locked` and
 *   queues their unfreeze in the transaction that marks them `unfreezing`: exactly once across
 *   instances and crashes. It releases what is still frozen for the lot and no more: a burn or a
 *   forced transfer of more than a wallet's free tokens unfreezes on chain by itself (Token.sol
 *   `burn` / `forcedTransfer`), and the tokens of the wallet's lots still in lock-up stay frozen.
 * A redemption needs nothing from here: it uses unlocked lots only, and T-REX's `burn` unfreezes
 * what it needs when the release job has not run yet.
 */
export class LockUpOnChain {
  constructor(
    private readonly chain: TokenLedger,
    private readonly dealing: Pick<DealingService, 'lockUpOf'>,
    private readonly clock: Clock,
  ) {
    chain.onOutcome('lockup', (em, tx, outcome) => this.onOutcome(em, tx, outcome));
  }

  /** After a mint's outcome (its lots booked in `em`): freezes the new lots still in lock-up. */
  async freezeMinted(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    if (!outcome.ok || !MINTS.includes(tx.purpose) || !tx.toAddress) return;
    const own = orderOfCorrelation(tx.correlation);
    const orderIds = own ? [own] : (await em.find(ChainBatchOrder, { transactionId: tx.id })).map((r) => r.orderId);
    if (!orderIds.length) return;
    await em.flush();
    const lots = await unfrozenLotsOf(em, orderIds);
    if (lots.length) await this.freezeLots(em, tx, lots[0].share_class_id, lots);
  }

  /**
   * After a forced transfer's outcome (the receiver's lots booked in `em`, keeping the settlement
   * dates of the lots they left): T-REX `forcedTransfer` unfreezes at the sender what it must and
   * the tokens arrive free, so the received lots still in lock-up are frozen again at the receiver.
   */
  async freezeReceived(em: EntityManager, tx: LedgerIntent, shareClassId: string, wallet: string, lots: BookedLot[]): Promise<void> {
    const open = lots.map((l) => ({ lot_id: l.id, remaining: l.remaining, settled_at: l.settledAt, wallet: wallet.toLowerCase() }));
    if (open.length) await this.freezeLots(em, tx, shareClassId, open);
  }

  /** One freeze intent for the lots still in lock-up, each at its wallet, and their `lot_freeze` rows: in the caller's transaction. */
  private async freezeLots(
    em: EntityManager,
    tx: LedgerIntent,
    shareClassId: string,
    lots: { lot_id: string; remaining: string; settled_at: Date; wallet: string }[],
  ): Promise<void> {
    const lockUp = await this.dealing.lockUpOf(em, await em.findOneOrFail(ShareClass, { id: shareClassId }));
    if (!lockUp) return;
    // Addresses as ops typed them or lower-cased: compared lower-cased.
    const token = (await em.find(Token, { chainId: tx.chainId, shareClass: shareClassId })).find(
      (t) => t.contractAddress.toLowerCase() === tx.toAddress!.toLowerCase(),
    );
    if (!token) throw new Error(`chain transaction ${tx.id} moved tokens on ${tx.toAddress}, which is no token of share class ${shareClassId}`);
    const now = this.clock.now();
    const held = lots
      .map((l) => ({ ...l, unlocksAt: plusDays(new Date(l.settled_at), lockUp.days, lockUp.timeZone), units: toUnits(l.remaining, token.decimals) }))
      .filter((l) => l.unlocksAt.getTime() > now.getTime() && l.units > 0n);
    if (!held.length) return;
    const intent = this.intent(
      em,
      tx.chainId,
      token.contractAddress,
      'lockup.freeze',
      held.map((l) => ({ wallet: l.wallet, units: l.units })),
    );
    await em.flush();
    for (const l of held) {
      em.create(LotFreeze, {
        lotId: l.lot_id,
        chainId: tx.chainId,
        tokenAddress: token.contractAddress.toLowerCase(),
        wallet: l.wallet,
        units: String(l.units),
        unlocksAt: l.unlocksAt,
        status: LotFreezeStatus.freezing,
        freezeTxId: intent.id,
        updatedAt: now,
      });
    }
    this.chain.wake();
  }

  /** A freeze or release reached its depth: its lots move on, once (the sender's transaction). */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    const freeze = tx.purpose === 'lockup.freeze';
    const rows = await em.find(LotFreeze, freeze ? { freezeTxId: tx.id } : { unfreezeTxId: tx.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const now = this.clock.now();
    for (const row of rows) {
      row.updatedAt = now;
      if (outcome.ok) row.status = freeze ? LotFreezeStatus.frozen : LotFreezeStatus.released;
      else if (!freeze && outcome.reason.includes(NOTHING_FROZEN)) Object.assign(row, { status: LotFreezeStatus.released, error: outcome.reason });
      else Object.assign(row, { status: LotFreezeStatus.failed, error: `${tx.purpose}: ${outcome.reason}` });
    }
    if (!outcome.ok)
      logger.error(
        { chainId: tx.chainId, intent: tx.id, lots: rows.map((r) => r.lotId), reason: outcome.reason },
        `a lock-up ${freeze ? 'freeze' : 'release'} failed on chain`,
      );
  }

  /**
   * The job: every frozen lot whose lock-up has ended is released, each exactly once (see the
   * class comment). Returns how many lots it released.
   */
  async releaseDue(orm: MikroORM): Promise<number> {
    let released = 0;
    for (;;) {
      const n = await orm.em.fork().transactional((em) => this.releaseSome(em));
      released += n;
      if (n < RELEASE_BATCH) break;
    }
    if (released) this.chain.wake();
    return released;
  }

  private async releaseSome(em: EntityManager): Promise<number> {
    const now = this.clock.now();
    const due = await em.find(
      LotFreeze,
      { status: LotFreezeStatus.frozen, unlocksAt: { $lte: now } },
      { orderBy: { unlocksAt: 'asc', lotId: 'asc' }, limit: RELEASE_BATCH, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
    );
    const byToken = new Map<string, LotFreeze[]>();
    for (const row of due) byToken.set(`${row.chainId} ${row.tokenAddress}`, [...(byToken.get(`${row.chainId} ${row.tokenAddress}`) ?? []), row]);
    for (const rows of byToken.values()) {
      const releases: Release[] = [];
      for (const wallet of new Set(rows.map((r) => r.wallet)))
        releases.push(
          ...(await this.stillFrozen(
            em,
            rows.filter((r) => r.wallet === wallet),
          )),
        );
      for (const r of rows) r.updatedAt = now;
      const live = releases.filter((r) => r.units > 0n);
      for (const r of releases.filter((x) => x.units === 0n))
        Object.assign(r.row, { status: LotFreezeStatus.released, releasedUnits: '0', error: 'nothing left frozen: a burn or a forced transfer released it' });
      if (!live.length) continue;
      const { chainId, tokenAddress } = rows[0];
      const intent = this.intent(
        em,
        chainId,
        tokenAddress,
        'lockup.unfreeze',
        live.map((r) => ({ wallet: r.row.wallet, units: r.units })),
      );
      await em.flush();
      for (const r of live) Object.assign(r.row, { status: LotFreezeStatus.unfreezing, releasedUnits: String(r.units), unfreezeTxId: intent.id });
    }
    await em.flush();
    return due.length;
  }

  /**
   * What to unfreeze for a wallet's due lots: what the chain holds frozen for it, less releases
   * queued before and what its other frozen lots keep; each due lot takes at most its own units,
   * oldest first.
   */
  private async stillFrozen(em: EntityManager, due: LotFreeze[]): Promise<Release[]> {
    const { chainId, tokenAddress, wallet } = due[0];
    this.chain.requireWritable(chainId);
    let available = await this.chain.frozenTokens(chainId, tokenAddress, wallet);
    const others = await em.find(LotFreeze, {
      chainId,
      tokenAddress,
      wallet,
      lotId: { $nin: due.map((d) => d.lotId) },
      status: { $in: [LotFreezeStatus.freezing, LotFreezeStatus.frozen, LotFreezeStatus.unfreezing] },
    });
    // A freeze still queued adds its units and keeps them: it changes nothing here.
    for (const o of others) {
      if (o.status === LotFreezeStatus.unfreezing) available -= BigInt(o.releasedUnits ?? '0');
      else if (o.status === LotFreezeStatus.frozen) available -= BigInt(o.units);
    }
    return due.map((row) => {
      const units = available > 0n ? (BigInt(row.units) < available ? BigInt(row.units) : available) : 0n;
      available -= units;
      return { row, units };
    });
  }

  private intent(
    em: EntityManager,
    chainId: string,
    token: string,
    purpose: (typeof LOCK_UP_PURPOSES)[number],
    rows: { wallet: string; units: bigint }[],
  ): LedgerIntent {
    const freeze = purpose === 'lockup.freeze';
    const [one] = rows;
    const call: LedgerCall =
      rows.length === 1
        ? { op: freeze ? 'freezePartial' : 'unfreezePartial', token, wallet: one.wallet, units: one.units }
        : { op: freeze ? 'batchFreezePartial' : 'batchUnfreezePartial', token, rows };
    return this.chain.intend(em, { chainId, purpose }, call);
  }
}
