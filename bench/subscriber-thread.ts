/**
 * A share of the live-update subscribers (bench/subscribers.ts), on a thread of its own so that
 * receiving hundreds of thousands of messages does not delay the producer's commits or the other
 * threads' arrival times. Each subscriber is its own graphql-ws connection; they alternate over
 * the gateway instances. Arrival times are kept per order id, latencies computed at the end
 * against the commit times the main thread sends.
 */
import { createClient, type Client } from 'graphql-ws';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

interface Setup {
  ports: number[];
  token: string;
  count: number;
  /** Index of this thread's first subscriber (which instance each one uses). */
  offset: number;
  query: string;
}

const setup = workerData as Setup;
const clients: Client[] = [];
/** Arrival times (epoch ms) of each order id's messages, one per subscriber that received it. */
const arrivals = new Map<string, number[]>();
let received = 0;
/** Subscribers whose connection was acknowledged: what each order id is expected to reach. */
let subscribed = 0;
let errors = 0;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function connect(index: number): Promise<boolean> {
  const port = setup.ports[index % setup.ports.length];
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${setup.token}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
  clients.push(client);
  client.subscribe<{ orderUpdated: { orderId: string } }>(
    { query: setup.query },
    {
      next: (m) => {
        const at = Date.now();
        const id = m.data?.orderUpdated?.orderId;
        if (!id) return void errors++;
        received++;
        const list = arrivals.get(id);
        if (list) list.push(at);
        else arrivals.set(id, [at]);
      },
      error: () => void errors++,
      complete: () => undefined,
    },
  );
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 30_000);
    client.on('connected', () => (clearTimeout(timer), resolve(true)));
    client.on('closed', () => (clearTimeout(timer), resolve(false)));
  });
}

/** Waits (bounded) until every subscriber of this thread received each of `ids`. */
async function awaitAll(ids: string[], until: number): Promise<void> {
  while (Date.now() < until && ids.some((id) => (arrivals.get(id)?.length ?? 0) < subscribed)) await wait(20);
}

async function main() {
  // In batches: a thousand handshakes at once would measure the gateway's authentication instead.
  for (let i = 0; i < setup.count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, setup.count - i) }, (_, k) => connect(setup.offset + i + k)));
    subscribed += batch.filter(Boolean).length;
  }
  parentPort!.postMessage({ type: 'connected', connected: subscribed });
  const startElu = { value: performance.eventLoopUtilization() };
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failure here ends the worker as an unhandled rejection, which fails the bench
  parentPort!.on('message', async (m: { type: string; ids?: string[]; committed?: [string, number][]; until?: number }) => {
    if (m.type === 'await') {
      await awaitAll(m.ids!, m.until!);
      parentPort!.postMessage({ type: 'awaited', counts: m.ids!.map((id) => arrivals.get(id)?.length ?? 0) });
    } else if (m.type === 'measure-start') {
      startElu.value = performance.eventLoopUtilization();
    } else if (m.type === 'finish') {
      const committed = m.committed!;
      await awaitAll(
        committed.map(([id]) => id),
        m.until!,
      );
      const elu = performance.eventLoopUtilization(startElu.value).utilization;
      const latencies: number[] = [];
      let missing = 0;
      let duplicates = 0;
      for (const [id, at] of committed) {
        const list = arrivals.get(id) ?? [];
        for (const t of list) latencies.push(t - at);
        if (list.length < subscribed) missing += subscribed - list.length;
        else duplicates += list.length - subscribed;
      }
      await Promise.all(clients.map(async (c) => c.dispose()));
      const buffer = Float64Array.from(latencies);
      parentPort!.postMessage({ type: 'finished', latencies: buffer, missing, duplicates, received, errors, elu, subscribers: subscribed }, [buffer.buffer]);
    }
  });
}

void main();
