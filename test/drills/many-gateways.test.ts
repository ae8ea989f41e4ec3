import { createClient, type Client } from 'graphql-ws';
import { randomUUID } from 'node:crypto';
import { zeroAddress, type Hex } from 'viem';
import WebSocket from 'ws';
import { Access } from '../../src/access/access';
import { runInScope } from '../../src/common/request-scope';
import { ANVIL_DEV_KEY } from '../../src/config/chains';
import { freePort } from '../../src/modules/chain/embedded-anvil';
import { ChainTransaction, ChainTxStatus } from '../../src/modules/chain/chain-transaction.entity';
import { Holding } from '../../src/modules/holding/holding.entity';
import { Order } from '../../src/modules/order/order.entity';
import { serverUrl } from '../support/database';
import { aDealingDateNav } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { killed, startChildGateway, type ChildGateway } from '../support/child-gateway';
import { httpRequest } from '../support/http';
import { aTokenPair } from '../support/auth.factories';
import { aOneStepOrder } from '../support/one-step.factories';
import { chainClients, eventually, testChains, TRANSFER, workerChain } from '../support/chain';
import { aChainMarket, fourWhitelistedInvestors } from '../support/chain.factories';
import { makeCertificates, WebhookReceiver, type TestCertificates } from '../support/webhook-receiver';
import { RoundRobinProxy } from '../support/round-robin-proxy';
import { requiredRedis } from '../support/redis';
import { CHECKER_PRINCIPAL } from '../support/approval.factories';

/*
 * Many gateways, one truth. Three gateways, each its own process, behind a round-robin proxy,
 * on one PostgreSQL, one Redis and one anvil: 16 writers place orders over REST through the
 * proxy, and a graphql-ws subscriber listens on each gateway. The gateway holding the agent-key
 * lease is SIGKILLed while a dealing date settles on chain; then all three are restarted one
 * after the other (SIGTERM, start, next). PostgreSQL server and Redis only (the embedded
 * database belongs to one process), like the other server drills.
 */
jest.setTimeout(600_000);
const onServer = serverUrl() ? describe : describe.skip;
const GATEWAYS = 3;
const WRITERS = 16;
const LEASE_SECONDS = 5;
const DRAIN_MS = 3000;
/** A gateway killed without warning takes with it the events it had not yet passed to its subscriber: those of its last moments are not counted. */
const KILL_MARGIN_MS = 5000;
/**
 * A subscriber counts the orders answered from this long after its subscription was acknowledged:
 * on a gateway that has just (re)started, the Redis subscriber connection can still be coming up
 * when graphql-ws acknowledges, and an order committed elsewhere in that moment is not fanned out
 * to it (seen once in CI: an order answered 25 ms after the subscription). A known gap of the
 * fan-out, not of the register: the order is in the event feed.
 */
const SUBSCRIBE_MARGIN_MS = 1000;
const THINK_MS = Number(process.env.DRILL_THINK_MS ?? 2000);

type Phase = 'steady' | 'kill' | 'restart' | 'tail';
interface Attempt {
  phase: Phase;
  status: number;
  /** The envelope's message of a failure (the proxy's own for an upstream lost or refused). */
  error?: string;
  orderId?: string;
  startedAt: number;
  endedAt: number;
}
/** One subscriber's life on one gateway: the orders it heard between subscribing and its gateway's signal. */
interface Listener {
  gateway: number;
  heard: Set<string>;
  from: number;
  to: number;
  /** What ended it, if anything did. */
  ended?: 'SIGKILL' | 'SIGTERM';
  client: Client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Stops the writers however the test ends (set once they run). */
let stopWriters = () => {};
let failedOutput = true;
const progress = (line: string) => process.env.DRILL_VERBOSE && process.stderr.write(`[drill ${new Date().toISOString().slice(11, 23)}] ${line}\n`);

onServer('Three gateways behind a round-robin proxy keep one truth through a SIGKILL and a rolling restart', () => {
  let gw: TestGateway;
  let certs: TestCertificates;
  let receiver: WebhookReceiver;
  let proxy: RoundRobinProxy | null = null;
  const gateways: (ChildGateway | null)[] = [];
  const listeners: Listener[] = [];
  beforeAll(async () => {
    certs = await makeCertificates();
    receiver = await WebhookReceiver.start(certs);
    gw = await startTestGateway({
      chains: await testChains({ leaseSeconds: LEASE_SECONDS, confirmations: 1 }),
      events: { webhookAllowedHosts: ['127.0.0.1'] },
    });
    await gw.reset();
  });
  afterAll(async () => {
    stopWriters();
    await chainClients((await workerChain()).rpcUrl).mining(true);
    if (failedOutput) for (const g of gateways) if (g) process.stderr.write(`\n--- gateway ${g.port} ---\n${g.output().slice(-4000)}\n`);
    await Promise.all(listeners.map(async (l) => l.client.dispose()));
    await Promise.all(gateways.map(async (g) => g && killed(g.child, 'SIGKILL')));
    await proxy?.close();
    await receiver.close();
    certs.cleanup();
    await gw.close();
  });

  it('0 failed requests in the rolling restart, only 200/503 at the kill, every order once and minted once, every webhook delivered, every subscriber hears its orders, the lease moves within its TTL', async () => {
    // given a token on chain, four investors with whitelisted wallets, a webhook for settlements, and the dealing date's NAV
    const { rpcUrl } = await workerChain();
    const redisUrl = await requiredRedis();
    const chain = chainClients(rpcUrl);
    const m = await aChainMarket(gw);
    const { investors, wallets } = await fourWhitelistedInvestors(gw, m);
    const hook = await gw.api('POST', '/webhooks/register', {
      host: 'dist-a.test',
      body: { event_type: 'token.transfer_completed', endpoint_url: receiver.url('/settled') },
    });
    expect(hook.status).toBe(200);
    const probe = await aOneStepOrder(gw, { ...m, investor: investors[0] }, { amount: '100', chainId: '31337' });
    const dealingDate = probe.dealingDate!;
    await aDealingDateNav(gw.em(), m.shareClass, '2', dealingDate);
    const opsToken = await gw.opsToken();
    const { accessToken } = await aTokenPair(gw, m.distributor);
    await gw.gateway.close(); // its sender releases the key's lease: the children are its only candidates

    // and three gateways on fixed ports behind the proxy, a subscriber on each
    const ports = await Promise.all(Array.from({ length: GATEWAYS }, () => freePort()));
    // One Redis prefix for the three (their shared bus and quotas), this run's own.
    const prefix = `drill-${randomUUID().slice(0, 8)}:`;
    const envOf = (i: number) => ({
      DATABASE_URL: gw.db.url!,
      REDIS_URL: redisUrl,
      REDIS_CHANNEL_PREFIX: prefix,
      PORT: String(ports[i]),
      APP_ENV: 'test',
      EVENT_POLL_MS: '50',
      LOG_LEVEL: process.env.DRILL_LOG_LEVEL ?? 'warn',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_CA_FILE: certs.caFile,
      DRILL_AGENT_KEY: ANVIL_DEV_KEY,
      CHAINS: JSON.stringify({
        '31337': { rpcUrls: [rpcUrl], confirmations: 1, agentKeyEnv: 'DRILL_AGENT_KEY', replaceAfterMs: 600000, leaseSeconds: LEASE_SECONDS },
      }),
    });
    gateways.push(...(await Promise.all(ports.map((_, i) => startChildGateway(envOf(i))))));
    proxy = await RoundRobinProxy.start(ports);
    const listen = async (i: number) => listeners.push(await listener(i, ports[i], accessToken));
    for (let i = 0; i < GATEWAYS; i++) await listen(i);
    const endListening = (i: number) =>
      listeners.filter((l) => l.gateway === i && l.to === Infinity).forEach((l) => ((l.to = Date.now()), (l.ended = 'SIGTERM')));

    // when 16 writers place orders through the proxy the whole time
    let phase: Phase = 'steady';
    let writing = true;
    stopWriters = () => (writing = false);
    const attempts: Attempt[] = [];
    const place = async (n: number) => {
      const startedAt = Date.now();
      const res = await httpRequest(proxy!.port, 'POST', '/api/v1/orders/subscribe', {
        host: 'dist-a.test',
        body: {
          distributorId: m.distributor.id,
          investorId: investors[n % investors.length].id,
          shareClassId: m.shareClass.id,
          amount: '100',
          chainId: '31337',
        },
      }).catch(() => ({ status: 0, body: null as any }));
      attempts.push({
        phase,
        status: res.status,
        orderId: res.status === 200 ? res.body?.data?.orderId : undefined,
        ...(res.status !== 200 && { error: String(res.body?.errorMsg) }),
        startedAt,
        endedAt: Date.now(),
      });
    };
    // Each writer places an order, then pauses a little (THINK_MS): 16 busy clients, bounded on a shared machine.
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let n = w; writing; n += WRITERS) {
        await place(n);
        await sleep(THINK_MS);
      }
    });
    const acknowledged = () => attempts.filter((a) => a.status === 200).map((a) => a.orderId!);
    await eventually('the first orders acknowledged', async () => acknowledged().length >= 40, 120_000);

    // and ops accept them and settle the dealing date, and the lease holder is SIGKILLed with a batch on its way
    const ops = (query: string, variables: Record<string, unknown> = {}) =>
      httpRequest(proxy!.port, 'POST', '/graphql', { headers: { authorization: `Bearer ${opsToken}` }, body: { query, variables } });
    // Ops accept the orders through the order service on the shared database (as the factories do),
    // four at a time: the acceptance is not what this drill is about, and through the busy gateways it took minutes.
    const oneStep = gw.gateway.services.oneStepOrder;
    const acceptAll = async (ids: string[]) => {
      for (let i = 0; i < ids.length; i += 4) {
        // As a second operator, the settler (test-ops) being the first: one principal alone mints
        // nothing (segregation of duties, src/access/duties.ts).
        await runInScope({ actor: 'drill', principal: CHECKER_PRINCIPAL }, () =>
          Promise.all(ids.slice(i, i + 4).map((id) => oneStep.accept({ em: gw.em(), access: Access.ops('drill') }, id))),
        );
      }
    };
    const settle = async () => {
      const res = await ops(
        `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId reason } transactions { id } } }`,
        { sc: m.shareClass.id, d: dealingDate },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.settleDealingDate.failed).toEqual([]);
    };
    progress(`${acknowledged().length} orders acknowledged; accepting and settling`);
    await acceptAll([probe.id, ...acknowledged()]);
    // Nothing is mined until the lease has moved: the kill finds the batch on its way. Mined as it
    // came, it could be confirmed within 200 ms of its signing, between two looks of the wait below.
    await chain.mining(false);
    await settle();
    progress('settlement queued');
    const batches = () => gw.em().find(ChainTransaction, { purpose: 'settlement.batchMint' }, { orderBy: { id: 'asc' } });
    await eventually(
      'a settlement batch signed or sent',
      async () => (await batches()).some((t) => t.status === ChainTxStatus.signed || t.status === ChainTxStatus.sent),
      60_000,
    );
    progress('a batch is on its way: SIGKILL of the lease holder');
    phase = 'kill';
    const [signer] = await gw.em().getConnection().execute<{ lease_owner: string }[]>(`select lease_owner from chain_signer where chain_id = '31337'`);
    const holder = gateways.findIndex((g) => g && signer && signer.lease_owner.startsWith(`${g.child.pid}:`));
    expect(holder).toBeGreaterThanOrEqual(0);
    // A gateway killed without warning takes with it the events it had not yet passed to its subscriber.
    const killedAt = Date.now();
    listeners.filter((l) => l.gateway === holder && l.to === Infinity).forEach((l) => ((l.to = killedAt - KILL_MARGIN_MS), (l.ended = 'SIGKILL')));
    await killed(gateways[holder]!.child, 'SIGKILL');
    const newOwner = await eventually(
      'the lease taken by another gateway',
      async () => {
        const [row] = await gw
          .em()
          .getConnection()
          .execute<{ lease_owner: string | null }[]>(`select lease_owner from chain_signer where chain_id = '31337' and lease_until > now()`);
        return row?.lease_owner && row.lease_owner !== signer.lease_owner ? row.lease_owner : undefined;
      },
      30_000,
    );
    const leaseMovedMs = Date.now() - killedAt;
    progress(`lease moved in ${leaseMovedMs} ms`);
    // What the killed holder sent is mined now, under its successor's watch.
    await chain.mining(true);
    gateways[holder] = await startChildGateway(envOf(holder));
    await listen(holder);
    await sleep(2000);

    // and every gateway is restarted in turn (SIGTERM, start, next) while the writers go on
    phase = 'restart';
    for (let i = 0; i < GATEWAYS; i++) {
      endListening(i);
      await killed(gateways[i]!.child, 'SIGTERM');
      gateways[i] = await startChildGateway(envOf(i));
      await eventually('the restarted gateway back in rotation', async () => proxy!.ready[i], 30_000);
      progress(`gateway ${i} restarted`);
      await listen(i);
    }
    phase = 'tail';
    await sleep(2000);
    writing = false;
    await Promise.all(writers);

    // then every acknowledged order is there once, and once accepted and settled, minted once
    const acked = acknowledged();
    progress(
      `${attempts.length} requests, ${acked.length} acknowledged: ${JSON.stringify(['steady', 'kill', 'restart', 'tail'].map((p) => countBy(attempts.filter((a) => a.phase === p).map((a) => a.status))))}`,
    );
    for (const a of attempts.filter((x) => x.status !== 200)) progress(`${a.phase}: ${a.status} ${a.error}`);
    expect(new Set(acked).size).toBe(acked.length);
    const pending = (await gw.em().find(Order, { distributor: m.distributor.id, status: 'pending' })).map((o) => o.id);
    await acceptAll(pending);
    await settle();
    progress(`${pending.length} more accepted, settling`);
    const everyOrder = [probe.id, ...acked];
    const stored = await gw.em().find(Order, { distributor: m.distributor.id });
    const storedIds = stored.map((o) => o.id);
    expect(storedIds.filter((id) => everyOrder.includes(id)).sort()).toEqual([...everyOrder].sort());
    // Beyond the acknowledged ones, only the writes whose answer was lost at the kill (503) may exist.
    const unknown = attempts.filter((a) => a.status === 503).length;
    expect(stored.length - everyOrder.length).toBeLessThanOrEqual(unknown);
    const settledOrders = await eventually(
      'every order settled',
      async () => {
        const rows = await gw.em().find(Order, { distributor: m.distributor.id });
        return rows.every((o) => o.status === 'settled') ? rows : undefined;
      },
      180_000,
    );
    const mints = await chain.pub.getLogs({ address: m.token.contractAddress as Hex, event: TRANSFER, args: { from: zeroAddress }, fromBlock: 0n });
    expect(mints).toHaveLength(settledOrders.length);
    for (const inv of investors) {
      const held = (await gw.em().findOneOrFail(Holding, { investor: inv.id, shareClass: m.shareClass.id })).balance;
      expect(await chain.balanceOf(m.token.contractAddress, wallets.get(inv.id)!)).toBe(BigInt(Math.round(Number(held) * 1e6)));
    }

    // and every settlement's webhook is delivered at least once, its duplicates known by their id
    const deliveries = await eventually(
      'a webhook for every settled order',
      async () => {
        const got = receiver.received.filter((r) => r.path === '/settled');
        const orders = new Set(got.map((r) => r.json?.data?.orderId));
        return settledOrders.every((o) => orders.has(o.id)) ? got : undefined;
      },
      120_000,
    );
    const ids = new Set(deliveries.map((r) => String(r.headers['webhook-id'])));
    expect(ids.size).toBe(settledOrders.length);

    // and every subscriber heard every order acknowledged while it listened (with its gateway's drain to spare)
    await eventually('every subscriber heard its orders', async () => listeners.every((l) => heardItsOrders(l, attempts)), 30_000).catch(() => undefined);
    for (const l of listeners)
      expect({ gateway: l.gateway, ended: l.ended, missing: missingOrders(l, attempts) }).toEqual({ gateway: l.gateway, ended: l.ended, missing: [] });

    // and the statuses: none failed in the rolling restart, only 200 or 503 at the kill, the lease moved within its TTL
    const statuses = (p: Phase) => countBy(attempts.filter((a) => a.phase === p).map((a) => a.status));
    expect(Object.keys(statuses('restart'))).toEqual(['200']);
    expect(Object.keys(statuses('steady'))).toEqual(['200']);
    expect(Object.keys(statuses('tail'))).toEqual(['200']);
    for (const status of Object.keys(statuses('kill'))) expect(['200', '503']).toContain(status);
    expect(leaseMovedMs).toBeLessThanOrEqual(LEASE_SECONDS * 1000 + 1000);
    expect(newOwner).not.toBe(signer.lease_owner);

    failedOutput = false;
    process.stdout.write(
      `\nmany-gateways drill: ${attempts.length} requests by ${WRITERS} writers through ${GATEWAYS} gateways; ` +
        `statuses by phase ${JSON.stringify({ steady: statuses('steady'), kill: statuses('kill'), restart: statuses('restart'), tail: statuses('tail') })}; ` +
        `${proxy.retried} retried after a refused connection; lease moved ${leaseMovedMs} ms after the SIGKILL (TTL ${LEASE_SECONDS} s); ` +
        `${settledOrders.length} orders settled, ${mints.length} mints; ${deliveries.length} webhook deliveries, ${deliveries.length - ids.size} duplicates; ` +
        `${listeners.length} subscriber lives, ${listeners.reduce((a, l) => a + l.heard.size, 0)} orders heard\n`,
    );
  });
});

/** A subscriber of the distributor's order updates on one gateway, recording the orders it hears. */
async function listener(gateway: number, port: number, token: string): Promise<Listener> {
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
  const heard = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('closed', (e) => reject(new Error(`subscriber on gateway ${gateway} closed: ${(e as { code: number }).code}`)));
  });
  client.subscribe<{ orderUpdated: { orderId: string } }>(
    { query: 'subscription { orderUpdated { orderId } }' },
    { next: (m) => m.data && heard.add(m.data.orderUpdated.orderId), error: () => undefined, complete: () => undefined },
  );
  // Subscribed once a query sent after it on the same socket is answered.
  await new Promise<void>((resolve) =>
    client.subscribe({ query: '{ health { status } }' }, { next: () => undefined, error: () => resolve(), complete: () => resolve() }),
  );
  return { gateway, heard, from: Date.now(), to: Infinity, client };
}

/** The orders acknowledged while `l` listened: asked after it subscribed, answered before its gateway's signal. */
function missingOrders(l: Listener, attempts: Attempt[]): string[] {
  return attempts
    .filter((a) => a.status === 200 && a.startedAt >= l.from + SUBSCRIBE_MARGIN_MS && a.endedAt <= l.to && !l.heard.has(a.orderId!))
    .map((a) => `${a.orderId} (answered ${a.endedAt - l.from} ms after subscribing, ${l.to - a.endedAt} ms before the end)`);
}

const heardItsOrders = (l: Listener, attempts: Attempt[]) => missingOrders(l, attempts).length === 0;

function countBy(values: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
