/**
 * `npm run bench:ws-floor`: the machine's floor for the live-update fan-out, the baseline of
 * `npm run bench:subscribers`. A bare `ws` server sends one pre-serialized message of the size of an
 * `orderUpdated` message to each of N sockets (default 1,000), as fast as the sockets take them;
 * the clients, in a worker thread, only count. No GraphQL, no database, no Redis: what is left is
 * the socket writes and reads that any gateway pays per subscriber and event.
 *
 *   BENCH_SOCKETS=1000 BENCH_SECONDS=5 npm run bench:ws-floor
 *   npm run bench:ws-floor -- --quick      (50 sockets for 1 s: the smoke run)
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import WebSocket, { WebSocketServer } from 'ws';
import { QUICK } from './production-env';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? (QUICK ? 50 : 1000));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 5));
/** About the size of a `next` message of `orderUpdated` with its event fields. */
const MESSAGE = JSON.stringify({
  id: '00000000-0000-0000-0000-000000000000',
  type: 'next',
  payload: {
    data: {
      orderUpdated: {
        eventId: 'evt_'.padEnd(28, '0'),
        orderId: 'ord_'.padEnd(28, '0'),
        flow: 'one_step',
        status: 'accepted',
        previousStatus: 'pending',
        sequence: 2,
        webhookEvent: 'order.accepted',
        distributorId: 'DT000001',
        shareClassId: 'SC000001',
        occurredAt: Date.now(),
      },
    },
  },
});

async function clients(port: number, sockets: number): Promise<void> {
  let received = 0;
  const open = Array.from({ length: sockets }, () => new WebSocket(`ws://127.0.0.1:${port}`));
  for (const ws of open) ws.on('message', () => received++);
  await Promise.all(open.map((ws) => once(ws, 'open')));
  parentPort!.postMessage({ type: 'ready' });
  parentPort!.on('message', (m: { type: string }) => {
    if (m.type !== 'count') return;
    parentPort!.postMessage({ type: 'count', received });
    for (const ws of open) ws.terminate();
  });
}

async function main(): Promise<void> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const worker = new Worker(__filename, { workerData: { port, sockets: SOCKETS } });
  const ready = new Promise<void>((resolve) => worker.on('message', (m: { type: string }) => m.type === 'ready' && resolve()));
  await ready;
  const sockets = [...server.clients];

  let events = 0;
  const cpu0 = process.cpuUsage();
  const until = Date.now() + SECONDS * 1000;
  // One event to every socket, then yield so the writes drain; bounded by time.
  while (Date.now() < until) {
    for (const ws of sockets) ws.send(MESSAGE);
    events++;
    await new Promise((r) => setImmediate(r));
  }
  const cpu = process.cpuUsage(cpu0);
  const counted = new Promise<number>((resolve) => worker.on('message', (m: { type: string; received: number }) => m.type === 'count' && resolve(m.received)));
  await new Promise((r) => setTimeout(r, 1000));
  worker.postMessage({ type: 'count' });
  const received = await counted;
  const sent = events * sockets.length;
  process.stdout.write(
    `${sockets.length} sockets, ${SECONDS} s: ${sent.toLocaleString('en-US')} messages sent (${Math.round(sent / SECONDS).toLocaleString('en-US')}/s, ` +
      `${Math.round(events / SECONDS)} events/s), ${received.toLocaleString('en-US')} received; ` +
      `server CPU ${((cpu.user + cpu.system) / sent).toFixed(1)} µs per message\n`,
  );
  await worker.terminate();
  server.close();
}

if (isMainThread) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  });
} else {
  void clients((workerData as { port: number }).port, (workerData as { sockets: number }).sockets);
}
