import { IdempotencyKey } from './idempotency-key.entity';
import { type ModuleManifest } from '../../access/module-manifest';

/** The idempotency module's manifest, collected by src/modules/manifests.ts. */
export const idempotencyModule: ModuleManifest = {
  name: 'idempotency',
  resolvers: [],
  entities: [IdempotencyKey],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {},
};
