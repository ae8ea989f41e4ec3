import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Fund } from '../modules/fund/fund.entity';
import { callbackPath } from '../supply/callback.routes';
import type { SupplyProviderConfig } from '../supply/provider';
import { SupplySimulator } from '../supply/simulator';

/**
 * `npm start` in development: the provider simulator on a free loopback port, knowing the funds
 * in the database at start (a fund provisioned later is refused with a fund-not-found reason
 * until onboarded with `PUT <simulator>/funds/<fundId>`), configured as `providerId` with a fresh
 * callback secret.
 */
export async function startDevSimulator(em: EntityManager, providerId: string) {
  const funds = (await em.find(Fund, {}, { fields: ['id'] })).map((f) => f.id);
  const simulator = new SupplySimulator({ providerId, funds, callbackSecret: randomBytes(24).toString('hex') });
  const url = await simulator.start(0, '127.0.0.1');
  const provider: SupplyProviderConfig = { url, timeoutMs: 10_000, callbackSecret: simulator.callbackSecret };
  return {
    simulator,
    provider,
    /** Points its callbacks at the gateway; returns the line to print. */
    connect(gatewayBase: string): string {
      simulator.callbackUrl = `${gatewayBase}${callbackPath(providerId)}`;
      return `Supply  ${url}   (simulator as provider ${providerId}; knows ${funds.join(', ') || 'no funds'}; POST /orders/<ref>/outcome to call back)`;
    },
  };
}
