import type { EntityManager } from '@mikro-orm/postgresql';
import { Access } from '../access/access';
import type { ManualClock } from '../common/clock';
import { runInScope } from '../common/request-scope';
import { IncomePayment, IncomeTreatment } from '../modules/distribution/distribution-policy.entity';
import type { Services } from '../services';

const DAY_MS = 86_400_000;
const INCOME_ACTOR = 'demo-desk';
/** The EUR class's income per token per day: about its 3.65% a year on a NAV near 100. */
const RATE_PER_TOKEN_PER_DAY = '0.01';

/**
 * Income on the demo's EUR class: it distributes in cash (its policy set as ops set it), and the
 * 30 days that ended 6 days ago were declared the next day and paid the day after, through the
 * distribution service, its clock on each of those days (as seedDemoHistory moves it, whose
 * holders are the ones paid). The class's description says so too (seed.ts).
 */
export async function seedDemoIncome(em: EntityManager, services: Services, clock: ManualClock, shareClassId: string): Promise<{ distributionId: string }> {
  const now = clock.now();
  const day = (daysAgo: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 10) - daysAgo * DAY_MS);
  const date = (daysAgo: number) => day(daysAgo).toISOString().slice(0, 10);
  const ctx = () => ({ em: em.fork(), access: Access.ops(INCOME_ACTOR) });
  try {
    return await runInScope({ actor: INCOME_ACTOR }, async () => {
      clock.set(day(40));
      await services.distribution.setPolicy(ctx(), shareClassId, IncomeTreatment.distributing, IncomePayment.cash);
      clock.set(day(5));
      const declared = await services.distribution.declare(ctx(), {
        shareClassId,
        periodFrom: date(35),
        periodTo: date(6),
        payDate: date(4),
        ratePerTokenPerDay: RATE_PER_TOKEN_PER_DAY,
      });
      clock.set(day(4));
      const paid = await services.distribution.pay(ctx(), declared.id);
      return { distributionId: paid.id };
    });
  } finally {
    clock.set(null);
  }
}
