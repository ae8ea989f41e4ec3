import { FundResolver } from './fund.resolver';
import { IssuerFundsResolver } from './issuer-funds.resolver';
import { Fund } from './fund.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';
import type { FundService } from './fund.service';

// What other modules use of fund: they import it from here, never from its files.
export { Fund } from './fund.entity';
export { fundNotFound } from './fund.errors';

/** The services the fund module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    fund: {
      fund: FundService;
    };
  }
}

/** The fund module's manifest, collected by src/modules/manifests.ts. */
export const fundModule: ModuleManifest<'fund'> = {
  name: 'fund',
  services: { fund: true },
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
