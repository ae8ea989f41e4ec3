import { IssuerResolver } from './issuer.resolver';
import { Issuer } from './issuer.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';
import type { IssuerService } from './issuer.service';

// What other modules use of issuer: they import it from here, never from its files.
export { Issuer } from './issuer.entity';
export { IssuerService } from './issuer.service';

/** The services the issuer module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    issuer: {
      issuer: IssuerService;
    };
  }
}

/** The issuer module's manifest, collected by src/modules/manifests.ts. */
export const issuerModule: ModuleManifest<'issuer'> = {
  name: 'issuer',
  services: { issuer: true },
  resolvers: [IssuerResolver],
  entities: [Issuer],
  mutationRoles: {
    createIssuer: 'operator',
    updateIssuer: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    createIssuer: nothing,
    updateIssuer: nothing,
  },
  visibility: {
    Issuer: 'ops',
  },
};
