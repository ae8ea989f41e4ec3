import { FundResolver } from './fund.resolver';
import { IssuerFundsResolver } from './issuer-funds.resolver';
import { Fund } from './fund.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';

// What other modules use of fund: they import it from here, never from its files.
export { Fund } from './fund.entity';
export { fundNotFound } from './fund.errors';

/** The fund module's manifest, collected by src/modules/manifests.ts. */
export const fundModule: ModuleManifest = {
  name: 'fund',
  resolvers: [FundResolver, IssuerFundsResolver],
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
