import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest, conflict } from '../../common/errors';
import { shownId } from '../../common/ids';
import type { HolderKind } from './address-claim.entity';
import { addressClaimedByAnother, custodyRows } from './investor.queries';

/**
 * What the register says of an address for an investor on a chain:
 * - `own`: a wallet of this investor on this chain not removed from the whitelist (pending or
 *   whitelisted), or — where the grant's delivery mode is `hold` — the distributor's own wallet;
 * - `foreign`: the register knows the address as someone else's (its `address_claim`): another
 *   investor's wallet (on any chain, in any status: one key holds it everywhere), or a
 *   distributor's wallet, present or former, outside a `hold` grant;
 * - `unknown`: anything else — an address the register does not know, or this investor's own
 *   removed (lost) wallet: never one to move value to, never anyone else's either.
 * A verified identity on the shared identity registry is never an answer: every tenant's
 * investors are verified there.
 */
export type Custody = 'own' | 'foreign' | 'unknown';

export interface CustodyQuery {
  investorId: string;
  chainId: string;
  address: string;
  /** The distributor whose own wallet counts as the investor's (`hold` delivery only). */
  holdFor?: string | null;
}

/**
 * THE custody rule (docs/custody.md), for many addresses at once: every path that can move value
 * — placement, acceptance, the transaction that queues a mint or burn (one order or each row of a
 * batch), a settlement by hash, a supply-side settlement, whitelisting, freezing, a recovery's new
 * address — asks it, through this function or `walletCustody`.
 */
export async function walletCustodyMany<K extends string>(em: EntityManager, queries: (CustodyQuery & { key: K })[]): Promise<Map<K, Custody>> {
  if (!queries.length) return new Map();
  const rows = await custodyRows(em, queries);
  const holds = new Map(queries.map((q) => [q.key, !!q.holdFor]));
  return new Map(rows.map((r) => [r.key, r.own || (holds.get(r.key) && r.held) ? 'own' : r.known ? 'foreign' : 'unknown']));
}

/** The custody rule for one address. */
export async function walletCustody(em: EntityManager, q: CustodyQuery): Promise<Custody> {
  return (await walletCustodyMany(em, [{ ...q, key: 'one' }])).get('one')!;
}

/** The refusal, naming the investor as the caller's surface names it and never whose the address is. */
export const notInvestorsWallet = (shownInvestorId: string, field = 'walletAddress') => `${field} is not a wallet of investor ${shownInvestorId}`;

/** The investor id as an order's surface names it (IN on R, US on O). */
export const orderInvestorShown = (order: { investor: { id: string }; surface?: string | null }) =>
  shownId(order.investor.id, 'investor', order.surface === 'O' ? 'O' : 'R');

/**
 * Placement and acceptance: an address registered to anyone else is a 400. An address the
 * register does not know may be held on the order as the investor's own claim: it settles only
 * once ops added and whitelisted it for this investor (`requireOwnWallet`).
 */
export async function refuseForeignWallet(em: EntityManager, q: CustodyQuery, shownInvestorId: string, answer: 'input' | 'state'): Promise<void> {
  if ((await walletCustody(em, q)) === 'foreign') throw refusal(notInvestorsWallet(shownInvestorId), answer);
}

/** A wallet given in the request is the caller's input (400); one already on the order conflicts with the register (409). */
const refusal = (message: string, answer: 'input' | 'state') => (answer === 'input' ? badRequest(message) : conflict(message));

/** Where value moves now: the address must be the investor's own; else the reason it is refused. */
export async function ownWalletRefusal(em: EntityManager, q: CustodyQuery, shownInvestorId: string): Promise<string | null> {
  return (await walletCustody(em, q)) === 'own' ? null : notInvestorsWallet(shownInvestorId);
}

/** `ownWalletRefusal` as an answer to the caller (nothing written, nothing sent). */
export async function requireOwnWallet(em: EntityManager, q: CustodyQuery, shownInvestorId: string, answer: 'input' | 'state' = 'state'): Promise<void> {
  const why = await ownWalletRefusal(em, q, shownInvestorId);
  if (why) throw refusal(why, answer);
}

/** A holder of addresses: an investor (its wallets) or a distributor (its own wallets). */
export interface Holder {
  kind: HolderKind;
  id: string;
}

/**
 * For a new wallet of any holder (an investor's add, a recovery's new address, a distributor's
 * own wallet): not an address of anyone else, on any chain. The database's claim
 * (address-claim.entity.ts) refuses it too, so a writer racing past this check gets the same 409.
 */
export async function refuseClaimedAddress(em: EntityManager, holder: Holder, address: string, field: string): Promise<void> {
  if (await isClaimedByAnother(em, holder, address)) throw conflict(takenAddress(field));
}

/** `refuseClaimedAddress` for an investor's wallet. */
export async function refuseTakenAddress(em: EntityManager, investorId: string, address: string, field: string): Promise<void> {
  await refuseClaimedAddress(em, { kind: 'investor', id: investorId }, address, field);
}

/** The refusal, whichever writer met it; the error table answers the constraint's violation with it for `address`. */
export const takenAddress = (field: string) => `${field} is a wallet of another holder`;

/**
 * Whether the address was ever a wallet of another holder than `holder`: another investor's (on
 * any chain, in any status, removed ones included) or a distributor's (its wallet now or before).
 */
export async function isClaimedByAnother(em: EntityManager, holder: Holder, address: string): Promise<boolean> {
  return addressClaimedByAnother(em, holder.kind, holder.id, address);
}

/** Whether the address is `foreign` to this investor whatever the chain (`isClaimedByAnother` for an investor). */
export function isTakenAddress(em: EntityManager, investorId: string, address: string): Promise<boolean> {
  return isClaimedByAnother(em, { kind: 'investor', id: investorId }, address);
}
