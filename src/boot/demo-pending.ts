import type { EntityManager } from '@mikro-orm/postgresql';
import { Access } from '../access/access';
import { Dec } from '../common/money';
import { runInScope } from '../common/request-scope';
import { OpsPrincipal } from '../modules/auth/ops-principal.entity';
import { PendingNav } from '../modules/nav/nav-confirmation';
import type { Services } from '../services';
import { DEMO_ACCESS } from './demo-access';

/** A NAV 1.5% above the last: outside the demo classes' tolerance (1%, asset class `other`), so it waits for a second person. */
const PENDING_NAV_MOVE = '1.015';

/**
 * What waits for the demo's approver (demo-access.ts): a NAV of the EUR class struck today outside
 * its tolerance, and an investor's category upgrade, both asked by the console's own principal
 * (`demo-console`, admin) through the services as its doors ask them, so Today and Approvals have
 * something true to show and the second principal something to approve. A four-eyes request is a
 * principal's, so the principal is made here (break-glass, as a development start makes it) and
 * left without a live token: the start that hands out access issues it one (issueDemoAccess).
 */
export async function seedDemoPending(
  em: EntityManager,
  services: Services,
  demo: { eurShareClassId: string; investorId: string },
): Promise<{ pendingNav: string; categoryRequest: string }> {
  return runInScope({ actor: DEMO_ACCESS }, async () => {
    await services.opsToken.bootstrap(em.fork(), DEMO_ACCESS, ['admin'], DEMO_ACCESS);
    await services.opsToken.revokeByName(em.fork(), DEMO_ACCESS);
    const principal = await em.fork().findOneOrFail(OpsPrincipal, { name: DEMO_ACCESS });
    const ctx = () => ({ em: em.fork(), access: Access.ops(DEMO_ACCESS, ['admin'], principal.id) });
    const live = await services.nav.latest(ctx(), demo.eurShareClassId);
    if (!live) throw new Error(`the demo class ${demo.eurShareClassId} has no NAV`);
    const close = new Dec(live.close).mul(PENDING_NAV_MOVE).toDecimalPlaces(4).toFixed();
    const pending = await services.nav.publish(ctx(), { shareClassId: demo.eurShareClassId, close });
    if (!(pending instanceof PendingNav)) throw new Error(`the demo's NAV ${close} was confirmed at once: it was meant to wait for an approver`);
    const upgrade = await services.eligibilityRequests.requestCategory(ctx(), {
      investorId: demo.investorId,
      category: 'professional',
      reason: 'demo: elective professional client on request, evidence of the portfolio and experience on file',
    });
    return { pendingNav: String(pending.approvalRequestId), categoryRequest: String(upgrade.id) };
  });
}
