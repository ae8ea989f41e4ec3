import type Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Dec, decimalString } from '../../common/money';
import { assertUnlocked, type DealingService, type DealingShareClass, unlockedBalance } from '../dealing';
import { LotSource } from './holding-lot.entity';
import { holdingKey, openLots, piecesCovering, type BookedLot, type TakenPiece } from './holding-lots';
import { applyMoves, lockHoldings, lockRow, type Move } from './holding-moves';
import { settleOrders } from './holding-settlements';
import { quantityExceedsHoldings } from './holding.errors';
import { investorHolder, walletHolder, type WalletHolder } from './wallet-holders.queries';
import { holdingBalance } from './holding.queries';
import type { HoldingKey, LockedHolding, OpenOrders, Settlement, SettleResult, Adjustment, ChainMove, Position } from './holding-ledger.types';

// The ledger's vocabulary lives in holding-ledger.types.ts so its helpers (moves, settlements) can use it without importing the ledger back.
export type { HoldingKey, LockedHolding, OpenOrders, SettlingOrder, Settlement, SettleResult, Adjustment, ChainMove, Position } from './holding-ledger.types';

/**
 * The holding ledger: the one writer of holdings (the fund's register of who owns what).
 *
 * Rules that live here and nowhere else:
 * - **The row lock.** `lock` takes the holding's row lock (creating an empty row first when asked,
 *   so there is always a row to lock) in the caller's transaction; every change and every check
 *   that promises tokens takes it first, so two of them never act on the same balance.
 * - **Reserved and free.** `reserved` is what open redemptions promised (read under the lock from
 *   the order book through `OpenOrders`); `free = balance − reserved`, computed in `lock` only.
 * - **Lots.** Tokens in form a lot settled at the settlement's instant (lock-up counts from there);
 *   tokens out leave the oldest lots first (holding-lots.ts); lock-up itself is
 *   dealing/lock-up.ts, with the share class's days from `DealingService.lockUpOf`.
 * - **The journal and the event.** Every change writes a `holding_movement` row (an order's at
 *   most once: `order_id` is unique) and a `holding.changed` event, in the same transaction.
 *
 * API (every method needs the caller's transaction: `em.transactional(async (em) => …)`; its
 * writes are plain statements (holding-moves.ts), made before it returns, that commit or roll
 * back with that transaction):
 * - `lock(em, key, { create? })` → `{ balance, reserved, free }`, the row locked until commit.
 * - `assertRedeemable(em, { investorId, shareClass, tokens, now }, exceeds)`: a redemption placement's check;
 *   locks, then refuses with `exceeds()` when `tokens > free`, then applies lock-up (400 naming
 *   the free unlocked amount and the date). The order the caller then writes is the reservation.
 * - `settle(em, { order, tokens, at, transferHash? })` (and `settleMany(em, settlements)`, the same per order for a batch) → `{ outcome: 'moved', change, balance }`,
 *   or without any change `{ outcome: 'already' }` (this order moved the holding before:
 *   idempotent per order, across transactions and instances) or `{ outcome: 'short', balance }`
 *   (a redemption burning more than is held). A subscription adds `tokens` as a lot settled at
 *   `at`; a redemption takes them out. It does not move the order: its caller records the
 *   transition in the same transaction (one-step settlement by ops today; on-chain settlement at
 *   the confirmation depth next: the order stays `accepted` while its mint or burn is pending,
 *   and a `failed` order simply never calls `settle`).
 * - `adjust(em, { investorId, shareClassId, distributorId, quantity, reason, at, settledAt })`:
 *   an ops adjustment; positive books a lot settled at `settledAt`, negative takes out of the
 *   free balance only (400 `quantity exceeds holdings`).
 * - `chainMove(em, { investorId, shareClassId, distributorId, change, at, transferHash, lots?, payload })`:
 *   tokens that moved on chain outside any order (the chain follower); in: a lot settled at `at`
 *   (or the given lots as they were, when a move is undone after a reorg); out: oldest lots first,
 *   returned so that an undo can put them back. `chainMoveMany(em, moves)`: many moves of tokens in
 *   (no lots: a lot settled at `at` each) with a few statements, as a distribution's batchMint lands.
 * - `position(em, investorId, shareClass, now)` → balance, unlocked, pendingIn, pendingOut.
 * - `bookOpening(em, …)` (a function, no dependencies): tokens held before this register (seed).
 */
export class HoldingLedger {
  constructor(private readonly deps: { dealing: Pick<DealingService, 'lockUpOf'>; openOrders: OpenOrders }) {}

  /** Locks the holding's row until the caller's transaction ends; `create` makes an empty one first if none exists. */
  async lock(em: EntityManager, key: HoldingKey, opts: { create?: Date } = {}): Promise<LockedHolding> {
    const balance = await lockRow(em, key, opts.create);
    // A second statement, after the lock: a statement reads with the snapshot it started with, so
    // a reservation committed by the transaction whose lock it waited for would be missed.
    const reserved = await this.deps.openOrders.reserved(em, key);
    return { ...key, balance, reserved, free: balance.minus(reserved) };
  }

  /**
   * A redemption of `tokens` may be placed: refused with `exceeds()` above the free balance, then
   * by lock-up (only tokens of lots settled `lockup` days ago). The holding stays locked until the
   * caller's transaction, which writes the redemption (the reservation), commits.
   */
  async assertRedeemable(
    em: EntityManager,
    r: { investorId: string; shareClass: DealingShareClass; tokens: Decimal.Value; now: Date },
    exceeds: () => Error,
  ): Promise<void> {
    const held = await this.lock(em, { investorId: r.investorId, shareClassId: r.shareClass.id });
    if (new Dec(r.tokens).greaterThan(held.free)) throw exceeds();
    const lockUp = await this.deps.dealing.lockUpOf(em, r.shareClass);
    if (!lockUp) return;
    assertUnlocked(r.tokens, held.reserved, held.balance, await openLots(em, r.investorId, r.shareClass.id), lockUp, r.now);
  }

  /** An order's tokens move, once per order (see the class comment). */
  async settle(em: EntityManager, s: Settlement): Promise<SettleResult> {
    return (await settleOrders(em, [s])).get(s.order.id)!;
  }

  /**
   * Many orders' tokens move, each exactly as `settle` would move it, in the given order, with a
   * few statements whatever their number (holding-settlements.ts): a batch of a dealing date.
   * The result per order id.
   */
  settleMany(em: EntityManager, settlements: Settlement[]): Promise<Map<string, SettleResult>> {
    return settleOrders(em, settlements);
  }

  /** Ops: a holding adjustment with its reason (see the class comment). */
  async adjust(em: EntityManager, a: Adjustment): Promise<void> {
    const quantity = new Dec(a.quantity);
    const held = await this.lock(em, a, { create: a.at });
    if (quantity.isNegative() && quantity.abs().greaterThan(held.free)) throw quantityExceedsHoldings();
    await applyMoves(em, balanceOf(held), [
      {
        investorId: a.investorId,
        shareClassId: a.shareClassId,
        change: quantity,
        source: LotSource.adjustment,
        at: a.at,
        settledAt: a.settledAt,
        reason: a.reason,
        event: { distributorId: a.distributorId, payload: { adjustment: true, reason: a.reason, settledAt: a.settledAt.getTime() } },
      },
    ]);
  }

  /** Tokens moved on chain outside any order (see the class comment): no free-balance check, the chain has decided. */
  /** The investor a wallet belongs to on a chain (what the chain follower asks of the register). */
  holderOf(em: EntityManager, chainId: string, address: string): Promise<WalletHolder | null> {
    return walletHolder(em, chainId, address);
  }

  /** The investor of that id with its distributor. */
  holderById(em: EntityManager, investorId: string): Promise<WalletHolder | null> {
    return investorHolder(em, investorId);
  }

  async chainMove(em: EntityManager, c: ChainMove): Promise<{ balance: string; taken: TakenPiece[]; added: BookedLot[] }> {
    const held = await this.lock(em, c, { create: c.at });
    const { moved, added } = await applyMoves(em, balanceOf(held), [chainMoveOf(c)]);
    return { balance: moved[0].balance, taken: moved[0].taken, added };
  }

  /** Tokens in on chain for many holdings at once, each as `chainMove` books it, with a few statements (a distribution's batchMint). */
  async chainMoveMany(em: EntityManager, moves: ChainMove[]): Promise<void> {
    if (!moves.length) return;
    for (const m of moves) {
      if (m.lots?.length || new Dec(m.change).isNegative()) throw new Error('chainMoveMany books tokens in, without lots: use chainMove');
    }
    await applyMoves(em, await lockHoldings(em, moves), moves.map(chainMoveOf));
  }

  /**
   * An investor's position in a share class, read without a lock: the balance, its unlocked part
   * (all of it without a lock-up), `pendingOut` (promised to open redemptions, the reserved
   * tokens) and `pendingIn` (expected from accepted subscriptions not yet settled; see OpenOrders).
   */
  async position(em: EntityManager, investorId: string, shareClass: DealingShareClass, now: Date): Promise<Position> {
    const key = { investorId, shareClassId: shareClass.id };
    const balance = new Dec((await holdingBalance(em, key)) ?? '0');
    const lockUp = await this.deps.dealing.lockUpOf(em, shareClass);
    const unlocked = lockUp ? unlockedBalance(balance, await openLots(em, investorId, shareClass.id), lockUp, now).unlocked : balance;
    const [pendingOut, pendingIn] = [await this.deps.openOrders.reserved(em, key), await this.deps.openOrders.expected(em, key)];
    return { balance: decimalString(balance), unlocked: decimalString(unlocked), pendingIn: decimalString(pendingIn), pendingOut: decimalString(pendingOut) };
  }
}

/**
 * Tokens held before this register recorded them (the demo seed, a register's opening): a lot
 * settled at `settledAt` and its journal row. No event: where the register starts is not a change
 * anyone was told otherwise of.
 */
export async function bookOpening(em: EntityManager, o: HoldingKey & { quantity: Decimal.Value; settledAt: Date; at: Date }): Promise<void> {
  const balance = await lockRow(em, o, o.at);
  await applyMoves(em, balanceOf({ ...o, balance }), [
    { investorId: o.investorId, shareClassId: o.shareClassId, change: new Dec(o.quantity), source: LotSource.opening, at: o.at, settledAt: o.settledAt },
  ]);
}

/** A holding locked alone, as `applyMoves` takes locked balances. */
const balanceOf = (held: HoldingKey & { balance: Dec }): Map<string, Dec> => new Map([[holdingKey(held.investorId, held.shareClassId), held.balance]]);

/** A move on chain as the ledger books it: tokens in keep the settlement dates of the lots they left; what those do not cover counts from `at`. */
function chainMoveOf(c: ChainMove): Move {
  return {
    investorId: c.investorId,
    shareClassId: c.shareClassId,
    change: new Dec(c.change),
    source: LotSource.transfer,
    at: c.at,
    transferHash: c.transferHash,
    reason: c.reason,
    lots: c.lots && piecesCovering(c.lots, c.change, c.at),
    event: { distributorId: c.distributorId, payload: { transferHash: c.transferHash, ...c.payload } },
  };
}
