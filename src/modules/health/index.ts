import { HealthResolver } from './health.resolver';
import { type ModuleManifest } from '../../access/module-manifest';

/** The health module's manifest, collected by src/modules/manifests.ts. */
export const healthModule: ModuleManifest = {
  name: 'health',
  resolvers: [HealthResolver],
  entities: [],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {
    Health: 'open',
  },
};
