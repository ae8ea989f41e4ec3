import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { priceAtNav, type SettlementPriced } from './order.pricing';
import type { Order } from './order.entity';

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
    await rawRows(
      em,
      `update "order" o set settlement_tokens = (r->>'settlementTokens')::numeric, settlement_amount = (r->>'settlementAmount')::numeric,
         amount_fees_total = coalesce((r->>'amountFeesTotal')::numeric, o.amount_fees_total), settlement_nav = (r->>'settlementNav')::numeric,
         nav = (r->>'nav')::numeric, nav_published_at = (r->>'navPublishedAt')::timestamptz, updated_at = ?, updated_by = ?, updated_by_principal = ?
       from jsonb_array_elements(?::jsonb) r where o.id = r->>'id'`,
      [opts.writeAt, currentActor(), currentPrincipal(), JSON.stringify(priced)],
    );
  }
  return priced;
}
