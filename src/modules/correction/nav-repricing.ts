import type { EntityManager } from '@mikro-orm/postgresql';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { appendEventRows } from '../../events/event-log';
import { rawRows } from '../../persistence/raw-query';
import { correctionOrderEvent } from './nav-correction-events';
import type { CorrectionPlan } from './nav-correction-plan';

/** The orders priced at the NAV and not settled, at the corrected close: one update, one history entry and one event each, by three statements. */
export async function repriceOrders(em: EntityManager, plan: CorrectionPlan, facts: Record<string, unknown>, now: Date): Promise<void> {
  if (!plan.repricings.length) return;
  const rows = plan.repricings.map((r) => ({ id: r.orderId, ...r.write }));
  await rawRows(
    em,
    `update "order" o set nav = (r->>'nav')::numeric,
       amount_tokens_estimated = case when r->'amountTokensEstimated' is not null then (r->>'amountTokensEstimated')::numeric else o.amount_tokens_estimated end,
       settlement_nav = coalesce((r->>'settlementNav')::numeric, o.settlement_nav), settlement_tokens = coalesce((r->>'settlementTokens')::numeric, o.settlement_tokens),
       settlement_amount = coalesce((r->>'settlementAmount')::numeric, o.settlement_amount), amount_fees_total = coalesce((r->>'amountFeesTotal')::numeric, o.amount_fees_total),
       updated_at = ?, updated_by = ?, updated_by_principal = ?
     from jsonb_array_elements(?::jsonb) r where o.id = r->>'id'`,
    [now, currentActor(), currentPrincipal(), JSON.stringify(rows)],
  );
  // A history entry in the order's status (no move): at least a millisecond after its last, as every entry is.
  await rawRows(
    em,
    `insert into order_status_entry (order_id, "at", status, "by", by_principal, note)
     select o.id, greatest(?::timestamptz, (select max(e."at") from order_status_entry e where e.order_id = o.id) + interval '1 millisecond'), o.status, ?, ?, r->>'note'
       from jsonb_array_elements(?::jsonb) r join "order" o on o.id = r->>'id'`,
    [
      now,
      currentActor(),
      currentPrincipal(),
      JSON.stringify(
        plan.repricings.map((r) => ({
          id: r.orderId,
          note: `re-priced at the corrected NAV ${r.navAfter} (was ${r.navBefore}): ${String(facts.reason)}`,
        })),
      ),
    ],
  );
  await appendEventRows(
    em,
    plan.repricings.map((r) =>
      correctionOrderEvent('order.repriced', r, now, {
        ...facts,
        flow: r.flow,
        status: r.status,
        tokensBefore: r.tokensBefore,
        tokensAfter: r.tokensAfter,
        amountAfter: r.amountAfter,
      }),
    ),
  );
}
