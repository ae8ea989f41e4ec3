import type { EntityManager } from '@mikro-orm/postgresql';
import { Access } from '../access/access';
import type { ManualClock } from '../common/clock';
import { nextId } from '../common/ids';
import { Dec } from '../common/money';
import { runInScope } from '../common/request-scope';
import { Distributor } from '../modules/distributor/distributor.entity';
import { Investor, InvestorGrant, InvestorWallet, WalletStatus } from '../modules/investor/investor.entity';
import { ShareClass } from '../modules/share-class/share-class.entity';
import type { Services } from '../services';
import { DEMO_CHAIN_ID } from './seed';

const DAY_MS = 86_400_000;
/** Who moves the history: the desk of the demo, as ops move any one-step order. */
const HISTORY_ACTOR = 'demo-desk';

/** The book's holders besides Ada (seed.ts): which of the two demo classes each buys (0 USD, 1 EUR). */
const HOLDERS = [
  { ref: 'demo-user-2', name: 'Grace Hopper', email: 'grace@example.com', country: 'US', classes: [0] },
  { ref: 'demo-user-3', name: 'Alan Turing', email: 'alan@example.com', country: 'GB', classes: [0, 1] },
  { ref: 'demo-user-4', name: 'Emmy Noether', email: 'emmy@example.com', country: 'DE', classes: [1] },
];

/** One past dealing of the book: a subscription of `amount`, or a redemption of `share` of the tokens held long enough. */
type Dealing = { daysAgo: number; holder: number; classIndex: number } & ({ amount: number } | { share: number });

/**
 * The dealings of 300 days: each class is bought about every three weeks by its holders in turn,
 * and every fourth dealing of a class is a redemption of a quarter of what its holder may redeem.
 * Deterministic, so every first start shows the same book.
 */
export function demoDealings(): Dealing[] {
  const out: Dealing[] = [];
  for (const classIndex of [0, 1]) {
    const holders = HOLDERS.flatMap((h, i) => (h.classes.includes(classIndex) ? [i] : []));
    for (let k = 0; k < 20; k++) {
      const daysAgo = 290 - k * 20 - classIndex * 7;
      if (daysAgo < 10) break;
      const holder = holders[k % holders.length];
      out.push(
        k % 4 === 3 ? { daysAgo, holder, classIndex, share: 0.25 } : { daysAgo, holder, classIndex, amount: (classIndex ? 40_000 : 60_000) * (1 + (k % 3)) },
      );
    }
  }
  return out.sort((a, b) => b.daysAgo - a.daysAgo || a.classIndex - b.classIndex);
}

/**
 * A living book for the demo: holders who bought (and some who redeemed) over the 300 days of the
 * seeded NAVs, each dealing an ops one-step order placed, accepted and settled at its dealing
 * date's NAV through the services, exactly as the desk moves one today.
 *
 * Why the clock: the services stamp what they write with their clock (placement, dealing date,
 * lots and the register's journal, the audit), and price at the NAV live at that instant, so
 * `services` must be those of a gateway whose clock (the one the database also stamps with) this
 * seeding sets to each historical day, then gives back to real time. The history is dealt before
 * the demo's token exists (a gateway with no chain: the settlements name the transfer agent's
 * reference, `demoHistoryTransfer`, not a chain transaction); the first start then mints each
 * holder's balance of the day on the new token (bringDemoOnChain), so the register and the chain
 * agree from that block on, and the register at an earlier date finds no closing block (the token
 * did not exist yet: docs/register.md).
 */
export async function seedDemoHistory(
  em: EntityManager,
  services: Services,
  clock: ManualClock,
  demo: { distributorId: string; shareClassIds: string[] },
): Promise<{ holders: string[]; orders: number }> {
  const now = clock.now();
  const investors = await seedHolders(em, demo, now);
  const at = (daysAgo: number, hourUtc: number) =>
    clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc) - daysAgo * DAY_MS));
  const ctx = () => ({ em: em.fork(), access: Access.ops(HISTORY_ACTOR) });
  const held = new Map<string, { at: number; tokens: Dec }[]>();
  let orders = 0;
  try {
    await runInScope({ actor: HISTORY_ACTOR }, async () => {
      for (const d of demoDealings()) {
        const daysAgo = businessDay(now, d.daysAgo, d.classIndex === 1);
        const shareClassId = demo.shareClassIds[d.classIndex];
        const parties = { distributorId: demo.distributorId, investorId: investors[d.holder], shareClassId };
        const key = `${parties.investorId}/${shareClassId}`;
        const lots = held.get(key) ?? [];
        // Placed in the morning before either class's cut-off (the EUR class's is 12:00 in Luxembourg), settled in the evening after the day's NAV (16:00 UTC).
        at(daysAgo, 8);
        let order;
        if ('amount' in d) order = await services.oneStepOrder.placeSubscription(ctx(), { ...parties, amount: String(d.amount) });
        else {
          // Only tokens out of the EUR class's 30-day lock-up are redeemed.
          const free = lots.filter((l) => l.at >= daysAgo + 31).reduce((s, l) => s.plus(l.tokens), new Dec(0));
          const tokens = free.mul(d.share).toDecimalPlaces(0, Dec.ROUND_DOWN);
          if (tokens.isZero()) continue;
          order = await services.oneStepOrder.placeRedemption(ctx(), { ...parties, tokenCount: tokens.toFixed() });
        }
        at(daysAgo, 9);
        await services.oneStepOrder.accept(ctx(), order.id);
        // On its dealing date (a holiday moves it on), in the evening, once that date's NAV is live.
        clock.set(new Date(`${order.dealingDate ?? ''}T19:00:00Z`));
        const settled = await services.oneStepSettlement.settle(ctx(), order.id, demoHistoryTransfer(order.id));
        const tokens = new Dec(settled.settlementTokens ?? 0);
        if ('amount' in d) lots.push({ at: daysAgo, tokens });
        else takeOldest(lots, tokens);
        held.set(key, lots);
        orders++;
      }
    });
  } finally {
    clock.set(null);
  }
  return { holders: investors, orders };
}

/**
 * The reference a history settlement names: the demo's history was settled before its token
 * existed, so it names no chain transaction; a distinct 32-byte reference per order (one
 * transfer settles one order), recognisably the demo's (`de40…`).
 */
export function demoHistoryTransfer(orderId: string): string {
  const digits = orderId.replace(/\D/g, '');
  return `0xde40${digits.padStart(60, '0')}`;
}

/** The holders, their demo wallets (whitelisted as Ada's is, on chain at the first start) and their classes. */
async function seedHolders(em: EntityManager, demo: { distributorId: string; shareClassIds: string[] }, now: Date): Promise<string[]> {
  return runInScope({ actor: 'seed' }, () =>
    em.transactional(async (tem) => {
      const distributor = await tem.findOneOrFail(Distributor, { id: demo.distributorId });
      const ids: string[] = [];
      for (const [i, h] of HOLDERS.entries()) {
        const investor = tem.create(Investor, {
          id: await nextId(tem, 'IN'),
          distributor,
          externalInvestorId: h.ref,
          email: h.email,
          countryCode: h.country,
          name: h.name,
        });
        for (const c of h.classes) tem.create(InvestorGrant, { investor, shareClass: tem.getReference(ShareClass, demo.shareClassIds[c]) });
        tem.create(InvestorWallet, {
          investor,
          chainId: DEMO_CHAIN_ID,
          address: `0x${(0xada2 + i).toString(16).padStart(40, '0')}`,
          status: WalletStatus.whitelisted,
          whitelistedAt: now,
        });
        ids.push(investor.id);
      }
      await tem.flush();
      return ids;
    }),
  );
}

/** `daysAgo`, moved back to a Friday when it falls on a weekend and the class deals Monday to Friday only. */
function businessDay(now: Date, daysAgo: number, weekdaysOnly: boolean): number {
  if (!weekdaysOnly) return daysAgo;
  const weekday = new Date(now.getTime() - daysAgo * DAY_MS).getUTCDay();
  return weekday === 6 ? daysAgo + 1 : weekday === 0 ? daysAgo + 2 : daysAgo;
}

/** Tokens out of the oldest lots first, as the register takes them. */
function takeOldest(lots: { at: number; tokens: Dec }[], tokens: Dec): void {
  let left = tokens;
  lots.sort((a, b) => b.at - a.at);
  for (const lot of lots) {
    const taken = Dec.min(lot.tokens, left);
    lot.tokens = lot.tokens.minus(taken);
    left = left.minus(taken);
  }
  lots.splice(0, lots.length, ...lots.filter((l) => l.tokens.gt(0)));
}
