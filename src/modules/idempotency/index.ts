import { IdempotencyKey } from './idempotency-key.entity';
import { type ModuleManifest } from '../../access/module-manifest';
import type { IdempotencyService } from './idempotency.service';

/** The services the idempotency module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    idempotency: {
      idempotency: IdempotencyService;
    };
  }
}

/** The idempotency module's manifest, collected by src/modules/manifests.ts. */
export const idempotencyModule: ModuleManifest<'idempotency'> = {
  name: 'idempotency',
  services: { idempotency: true },
  resolvers: [],
  entities: [IdempotencyKey],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {},
};
