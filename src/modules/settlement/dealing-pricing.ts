import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict } from '../../common/errors';
import type { DealingService } from '../dealing';
import { Nav } from '../nav';
import type { ShareClass } from '../share-class';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { type Order, priceAtNav, type SettlementPriced } from '../order';
import { navIdOfDate, writeOrderPrices } from './settlement.queries';

/** An order of a dealing date priced at the date's NAV (`priceAtNav`), as a plain record. */
export type DealingPriced = Pick<Order, 'id'> & SettlementPriced;

/**
 * The orders of a dealing date priced at that date's NAV by the one pricing rule (`priceAtNav`),
 * on copies: the entities stay as they were read. `writeAt` records the prices (and the audit
 * stamp) with one statement in the caller's transaction (a dealing date's run), rather than
 * through the unit of work's change sets for every order.
 */
export async function priceDealingDate(
  em: EntityManager,
  orders: Order[],
  nav: { close: string; publishedAt: Date },
  tokenDecimals: number,
  shareClassCurrency: string,
  opts: { writeAt?: Date },
): Promise<DealingPriced[]> {
  const priced = orders.map((o) => {
    const copy: DealingPriced = { id: o.id, type: o.type, amount: o.amount, tokenCount: o.tokenCount, currency: o.currency, feesRedBps: o.feesRedBps };
    priceAtNav(copy, nav, tokenDecimals, shareClassCurrency);
    return copy;
  });
  if (opts.writeAt && priced.length) {
    await writeOrderPrices(em, priced, { at: opts.writeAt, by: currentActor(), principal: currentPrincipal() });
  }
  return priced;
}

/** Refused while the dealing date's NAV is not published (409 naming the date). */
export const dealingNavNotPublished = (dealingDate: string) =>
  conflict(`No NAV published for dealing date ${dealingDate}: the orders of that date are priced at it, so they settle once it is`);

/**
 * The NAV struck for a dealing date: the last one published on that date in the share class's
 * dealing zone (its valuation point is the start of the date) and at or before `now`. Forward
 * pricing: an order is priced at its own dealing date's NAV, whichever path settles it (a dealing
 * date's batch, or one order on its own), never at one struck before the date; before that NAV
 * is struck there is nothing to settle, and a NAV the clock has not reached is not struck.
 */
export async function navOfDealingDate(
  em: EntityManager,
  dealing: DealingService,
  shareClass: Pick<ShareClass, 'id' | 'currency'>,
  dealingDate: string,
  now: Date,
): Promise<Nav> {
  const { calendar } = await dealing.rulesOf({ em }, shareClass);
  const id = await navIdOfDate(em, shareClass.id, calendar.timeZone, dealingDate, now);
  if (!id) throw dealingNavNotPublished(dealingDate);
  return em.findOneOrFail(Nav, { id });
}
