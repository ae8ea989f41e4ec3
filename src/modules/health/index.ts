import { HealthResolver } from './health.resolver';
import { type ModuleManifest } from '../../access/module-manifest';
import type { HealthService } from './health.service';

/** The services the health module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    health: {
      health: HealthService;
    };
  }
}

/** The health module's manifest, collected by src/modules/manifests.ts. */
export const healthModule: ModuleManifest<'health'> = {
  name: 'health',
  services: { health: true },
  resolvers: [HealthResolver],
  entities: [],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {
    Health: 'open',
  },
};
