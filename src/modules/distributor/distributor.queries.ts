import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import type { DeliveryMode } from './distributor.entity';

/** The distributor module's SQL (docs/architecture.md, "SQL"). */

export interface GrantRow {
  share_class_id: string;
  delivery_mode: DeliveryMode;
}

/**
 * The distributor's grants as plain rows: no partially loaded grants left in the request's
 * identity map. Read on every placement inside its transaction; paid by: `npm run bench`
 * (docs/benchmarks.md, "Latest figures": the subscribe and redeem scenarios).
 */
export function grantRows(em: EntityManager, distributorId: string): Promise<GrantRow[]> {
  return rawRows<GrantRow>(em, 'select share_class_id, delivery_mode from share_class_grant where distributor_id = ?', [distributorId]);
}

/**
 * The distributor's status as stored, or undefined. Kept as SQL, no benchmark pays for it (it is
 * cached): what is cached must be the row, not the request's identity-map copy of the distributor.
 */
export async function distributorStatus(em: EntityManager, distributorId: string): Promise<string | undefined> {
  const [row] = await rawRows<{ status: string }>(em, 'select status from distributor where id = ?', [distributorId]);
  return row?.status;
}
