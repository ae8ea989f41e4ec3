/**
 * A committer of order transitions for bench/subscribers.ts, on a thread of its own: a
 * transition through the ORM (`moveOrder`: `recordTransition` in a transaction, as the order
 * services commit one) costs milliseconds of CPU, so one thread cannot commit hundreds a second.
 * Answers each order id with the moment its COMMIT returned.
 */
import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../src/common/clock';
import { ormOptions } from '../src/boot/orm';
import { moveOrder } from '../test/support/event.factories';

const { url, connections } = workerData as { url: string; connections: number };

async function main() {
  const orm = await MikroORM.init({ ...ormOptions(systemClock), clientUrl: url, pool: { min: 0, max: connections } });
  const start = performance.eventLoopUtilization();
  parentPort!.on('message', (m: { type: string; id?: string }) => {
    if (m.type === 'move') {
      moveOrder(orm, m.id!, 'accepted', systemClock.now()).then(
        () => parentPort!.postMessage({ type: 'moved', id: m.id, at: Date.now() }),
        (err: Error) => parentPort!.postMessage({ type: 'failed', id: m.id, error: err.message }),
      );
    } else if (m.type === 'stop') {
      const elu = performance.eventLoopUtilization(start).utilization;
      void orm.close(true).then(() => parentPort!.postMessage({ type: 'stopped', elu }));
    }
  });
  parentPort!.postMessage({ type: 'ready' });
}

void main();
