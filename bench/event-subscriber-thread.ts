/**
 * bench:events' graphql-ws subscriber (bench/event-latency.ts), on a thread of its own like its
 * webhook receiver: the producer's ORM work in the main thread would otherwise hold each
 * message's arrival time back by whatever the main thread was doing when it came in. The bench
 * ends it by terminating the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { subscribe } from '../test/support/subscriptions';

const { port, query, token } = workerData as { port: number; query: string; token: string };

subscribe(port, query, {}, token, (msg: { orderUpdated: { orderId: string } }) => {
  parentPort!.postMessage({ orderId: msg.orderUpdated.orderId, at: Date.now() });
}).then(
  () => parentPort!.postMessage({ subscribed: true }),
  (err: unknown) => parentPort!.postMessage({ error: String(err) }),
);
