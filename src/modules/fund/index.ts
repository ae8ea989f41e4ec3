import { FundResolver } from './fund.resolver';
import { Fund } from './fund.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';

// What other modules use of fund (they still import these files directly; issue 45 moves them behind this door).
export { Fund } from './fund.entity';
export { fundNotFound } from './fund.errors';

/** The fund module's manifest, collected by src/modules/manifests.ts. */
export const fundModule: ModuleManifest = {
  name: 'fund',
  resolvers: [FundResolver],
  entities: [Fund],
  mutationRoles: {
    createFund: 'operator',
    updateFund: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    createFund: nothing,
    updateFund: nothing,
  },
  visibility: {
    Fund: 'ops',
  },
};
