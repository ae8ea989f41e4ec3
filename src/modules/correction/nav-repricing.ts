import type { EntityManager } from '@mikro-orm/postgresql';
import { currentActor, currentPrincipal } from '../../common/request-scope';
import { appendEventRows } from '../../events/event-log';
import { insertRepricedEntries, repriceOrderRows } from './correction.queries';
import { correctionOrderEvent } from './nav-correction-events';
import type { CorrectionPlan } from './nav-correction-plan';

/** The orders priced at the NAV and not settled, at the corrected close: one update, one history entry and one event each, by three statements. */
export async function repriceOrders(em: EntityManager, plan: CorrectionPlan, facts: Record<string, unknown>, now: Date): Promise<void> {
  if (!plan.repricings.length) return;
  const rows = plan.repricings.map((r) => ({ id: r.orderId, ...r.write }));
  await repriceOrderRows(em, rows, now, currentActor(), currentPrincipal());
  // A history entry in the order's status (no move): at least a millisecond after its last, as every entry is.
  await insertRepricedEntries(
    em,
    plan.repricings.map((r) => ({
      id: r.orderId,
      note: `re-priced at the corrected NAV ${r.navAfter} (was ${r.navBefore}): ${String(facts.reason)}`,
    })),
    now,
    currentActor(),
    currentPrincipal(),
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
