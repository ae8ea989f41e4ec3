import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/** The auth module's SQL (docs/architecture.md, "SQL"). */

/** A live ops token's row with its principal's name and roles. */
export interface OpsTokenRow {
  id: string;
  principal_id: string;
  name: string;
  roles: string[];
  expires_at: Date | string;
}

/**
 * The unrevoked token of this hash, with its principal (expiry is the caller's to check).
 * Paid by: `npm run bench:cpu` (docs/benchmarks.md, "Measured costs behind code choices",
 * `ops-token.service.ts` (`verify`)): the ORM's `findOne` cost ~1.3 ms of CPU more a request.
 */
export async function unrevokedOpsToken(em: EntityManager, tokenHash: string): Promise<OpsTokenRow | undefined> {
  const [row] = await rawRows<OpsTokenRow>(
    em,
    `select t.id, t.principal_id, p.name, p.roles, t.expires_at
       from ops_token t join ops_principal p on p.id = t.principal_id
      where t.token_hash = ? and t.revoked_at is null`,
    [tokenHash],
  );
  return row;
}

/**
 * Locks the principal's row (`for update`) until the transaction ends; false when there is none.
 * Kept as SQL, no benchmark pays for it: a lock taken without loading an entity, so it holds
 * whether or not the caller's ORM transaction is the pessimistic-lock kind MikroORM checks for.
 */
export async function lockOpsPrincipal(em: EntityManager, id: string): Promise<boolean> {
  const [row] = await rawRows<{ id: string }>(em, 'select id from ops_principal where id = ? for update', [id]);
  return row !== undefined;
}

/** Kept as SQL: a NOTIFY (delivered at the transaction's commit), which the ORM has no call for. */
export async function notifyOpsTokenChannel(em: EntityManager, channel: string): Promise<void> {
  await em.execute(`select pg_notify('${channel}', '')`);
}
