import { createServer } from 'node:net';
import { callbackPath } from '../../src/supply/callback.routes';
import type { SupplyProvidersConfig } from '../../src/supply/provider';
import { SupplySimulator } from '../../src/supply/simulator';
import type { TestGateway } from './gateway';

/*
 * Two-step orders: the provider simulator the gateway pushes to over real HTTP, the provider
 * configuration pointing at it, and a helper placing an order through surface R.
 */

export const SIM = 'supply-sim';
export const SIM_SECRET = 'test-callback-secret-0123456789abcdef';

/** A simulator on a free loopback port that knows no fund yet (`sim.addFund`). */
export async function aSimulator(providerId = SIM): Promise<SupplySimulator> {
  const sim = new SupplySimulator({ providerId, funds: [], callbackSecret: SIM_SECRET });
  await sim.start(0, '127.0.0.1');
  return sim;
}

/** A loopback port nothing listens on (an unreachable provider). */
export async function aClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `supply-sim` → the simulator, with a short timeout so the timeout case runs quickly. */
export function providersFor(sim: SupplySimulator, extra: SupplyProvidersConfig = {}): SupplyProvidersConfig {
  return { [sim.providerId]: { url: sim.url, timeoutMs: 2_000, callbackSecret: SIM_SECRET }, ...extra };
}

/** Points the simulator's callbacks at the gateway under test. */
export function connectCallbacks(sim: SupplySimulator, gw: TestGateway): void {
  sim.callbackUrl = `http://127.0.0.1:${gw.port}${callbackPath(sim.providerId)}`;
}

export interface OrderWorld {
  distributor: { id: string };
  investor: { id: string };
  shareClass: { id: string };
  hostA: string;
}

/** The body of `POST /orders/subscribe` (two-step) for the world's investor. */
export function subscribeBody(w: OrderWorld, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { distributorId: w.distributor.id, investorId: w.investor.id, shareClassId: w.shareClass.id, amountSubscription: 1000, ...over };
}

/** Places a two-step subscription through surface R and returns its record. */
export async function aTwoStepOrder(gw: TestGateway, w: OrderWorld, over: Record<string, unknown> = {}, host = w.hostA): Promise<any> {
  const res = await gw.api('POST', '/orders/subscribe', { host, body: subscribeBody(w, over) });
  if (res.status !== 200) throw new Error(`subscribe failed: ${res.status} ${res.text}`);
  return res.body.data;
}
