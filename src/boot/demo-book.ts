import type { MikroORM } from '@mikro-orm/postgresql';
import { createGateway } from '../app';
import type { ManualClock } from '../common/clock';
import type { GatewayDeps } from '../gateway';
import type { Services } from '../services';
import { seedDemoHistory } from './demo-history';
import { seedDemoIncome } from './demo-income';
import { seedDemoPending } from './demo-pending';

type Demo = { distributorId: string; shareClassIds: string[] };

/**
 * The demo's living book, dealt through `services` whose clock is `clock` (and the database's):
 * 300 days of subscriptions and redemptions, a cash distribution paid on the EUR class, then at
 * today's time a NAV and a category upgrade waiting for the approver.
 */
export async function seedDemoBookWith(services: Services, orm: MikroORM, clock: ManualClock, demo: Demo) {
  const history = await seedDemoHistory(orm.em.fork(), services, clock, demo);
  const income = await seedDemoIncome(orm.em.fork(), services, clock, demo.shareClassIds[1]);
  const pending = await seedDemoPending(orm.em.fork(), services, { eurShareClassId: demo.shareClassIds[1], investorId: history.holders[2] });
  return { ...history, ...income, ...pending };
}

/**
 * A first development start's living book (seedDemoBookWith), dealt by a gateway of its own that
 * speaks to no chain and serves nobody: the history predates the demo's token, which the start
 * deploys afterwards with each holder's balance of the day (bringDemoOnChain). Closed when done.
 */
export async function seedDemoBook(config: GatewayDeps['config'], orm: MikroORM, clock: ManualClock, demo: Demo) {
  const gateway = await createGateway({ config, orm, clock, supply: {}, chains: {}, background: false, reconcileAtOnce: false });
  try {
    return await seedDemoBookWith(gateway.services, orm, clock, demo);
  } finally {
    await gateway.close();
  }
}
