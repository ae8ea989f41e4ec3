/**
 * The benchmark's webhook receiver, on a thread of its own so the producer's work in the main
 * thread does not delay its answers or its arrival times.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { key, cert } = workerData as { key: string; cert: string };
const server = createServer({ key, cert }, (req, res) => {
  const at = Date.now();
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(200).end();
    try {
      const orderId = JSON.parse(Buffer.concat(chunks).toString('utf8'))?.data?.orderId;
      if (orderId) parentPort!.postMessage({ orderId, at });
    } catch {
      /* not JSON */
    }
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => parentPort!.postMessage({ port: (server.address() as AddressInfo).port }));
