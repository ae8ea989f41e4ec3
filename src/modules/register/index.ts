import { RegisterResolver } from './register.resolver';
import { ReconciliationResolver } from './reconciliation.resolver';
import { type ModuleManifest } from '../../access/module-manifest';
import type { RegisterAtDateReader } from './register-at-date';
import type { PositionsReader } from './positions';
import type { Reconciliation } from './reconciliation';

/** The services the register module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    register: {
      register: RegisterAtDateReader;
      positions: PositionsReader;
      reconciliation: Reconciliation | null;
    };
  }
}

/** The register module's manifest, collected by src/modules/manifests.ts. */
export const registerModule: ModuleManifest<'register'> = {
  name: 'register',
  services: { register: true, positions: true, reconciliation: true },
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
