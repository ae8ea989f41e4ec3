import type { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { logger } from '../../common/logger';
import { onEvents } from '../../events/event-log';
import type { RelayOptions } from '../../events/relay';
import { OPS_TOKEN_CHANNEL, type OpsTokenService } from './ops-token.service';

/** How soon a lost LISTEN connection is tried again (meanwhile every ops request reads the table). */
const RECONNECT_MS = 1_000;

/**
 * Keeps `tokens`' memory of valid ops tokens honest (see OpsTokenService): revocations committed
 * through this ORM drop it at commit; those of other processes (another instance, the
 * `ops-token` script) by NOTIFY on a PostgreSQL server. The memory is trusted only while the
 * LISTEN connection is up; on the embedded database (`listen` null: one process opens it) the
 * ORM's own events are all there is, so it is trusted from the start.
 */
export async function followOpsTokenRevocations(orm: MikroORM, listen: RelayOptions['listen'], tokens: OpsTokenService): Promise<{ stop(): Promise<void> }> {
  onEvents(orm.em, { written: (e) => tokens.onRevocation(e), committed: (e) => tokens.onRevocation(e) });
  if (!listen) {
    tokens.trustCache(true);
    return { stop: async () => tokens.trustCache(false) };
  }
  let stopped = false;
  let client: Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const c = new Client(listen);
    c.on('notification', () => tokens.forget());
    c.on('error', (err) => {
      if (client !== c) return;
      logger.warn({ err: err.message }, 'ops-token revocations lost their LISTEN connection; ops tokens are read from the database until it is back');
      tokens.trustCache(false);
      client = null;
      void c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
    });
    try {
      await c.connect();
      await c.query(`listen ${OPS_TOKEN_CHANNEL}`);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'LISTEN for ops-token revocations unavailable; ops tokens are read from the database');
      await c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), RECONNECT_MS).unref();
      return;
    }
    if (stopped) return void (await c.end().catch(() => undefined));
    client = c;
    // Revocations missed while not listening are unknown: start from an empty memory.
    tokens.trustCache(true);
  };
  await connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      tokens.trustCache(false);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
