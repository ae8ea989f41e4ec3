/**
 * bench:events' graphql-ws subscriber (bench/event-latency.ts), on a thread of its own like its webhook receiver: the
 * producer's ORM work in the main thread would otherwise hold each message's arrival time back
 * by whatever the main thread was doing when it came in.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { subscribe } from '../test/support/subscriptions';

const { port, query, token } = workerData as { port: number; query: string; token: string };

subscribe(port, query, {}, token, (msg: { orderUpdated: { orderId: string } }) => {
  parentPort!.postMessage({ orderId: msg.orderUpdated.orderId, at: Date.now() });
}).then(
  (sub) => {
    parentPort!.postMessage({ subscribed: true });
    parentPort!.on('message', (m: { close?: boolean }) => {
      if (m.close) void sub.close().then(() => parentPort!.postMessage({ closed: true }));
    });
  },
  (err: unknown) => parentPort!.postMessage({ error: String(err) }),
);
