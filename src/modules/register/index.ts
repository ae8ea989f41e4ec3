import { RegisterResolver } from './register.resolver';
import { ReconciliationResolver } from './reconciliation.resolver';
import { type ModuleManifest } from '../../access/module-manifest';

/** The register module's manifest, collected by src/modules/manifests.ts. */
export const registerModule: ModuleManifest = {
  name: 'register',
  resolvers: [RegisterResolver, ReconciliationResolver],
  entities: [],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {
    /** The register at a date names every distributor's investors: operations' only. */
    RegisterAtDate: 'ops',
    RegisterHolder: 'part',
    RegisterWallet: 'part',
    /** The current register and an investor's positions name every distributor's investors: operations' only. */
    Positions: 'ops',
    Position: 'part',
    InvestorPosition: 'ops',
    /** The register against the chain names every distributor's investors: operations' only. */
    Reconciliation: 'ops',
    ReconciliationDifference: 'part',
    ReconciliationHolder: 'part',
    ReconciliationWallet: 'part',
  },
};
