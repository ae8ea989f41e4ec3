import type { MikroORM } from '@mikro-orm/postgresql';
import { onEvents } from '../../events/event-log';
import { ListenConnection } from '../../events/listen-connection';
import type { RelayOptions } from '../../events/relay';
import { OPS_TOKEN_CHANNEL, type OpsTokenService } from './ops-token.service';

/**
 * Keeps `tokens`' memory of valid ops tokens honest (see OpsTokenService): revocations committed
 * through this ORM drop it at commit; those of other processes (another instance, the
 * `ops-token` script) by NOTIFY on a PostgreSQL server. The memory is trusted only while the
 * LISTEN connection is up (revocations missed while it was away are unknown, so trusting again
 * starts from an empty memory); on the embedded database (`listen` null: one process opens it)
 * the ORM's own events are all there is, so it is trusted from the start.
 */
export async function followOpsTokenRevocations(orm: MikroORM, listen: RelayOptions['listen'], tokens: OpsTokenService): Promise<{ stop(): Promise<void> }> {
  onEvents(orm.em, { written: (e) => tokens.onRevocation(e), committed: (e) => tokens.onRevocation(e) });
  if (!listen) {
    tokens.trustCache(true);
    return { stop: async () => tokens.trustCache(false) };
  }
  const connection = new ListenConnection(listen, OPS_TOKEN_CHANNEL, () => tokens.forget(), 'ops-token revocations', {
    meanwhile: 'ops tokens read from the database meanwhile',
    onState: (listening) => tokens.trustCache(listening),
  });
  await connection.open();
  return { stop: () => connection.close() };
}
