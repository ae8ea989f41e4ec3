import { IssuerResolver } from './issuer.resolver';
import { Issuer } from './issuer.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';

// What other modules use of issuer: they import it from here, never from its files.
export { Issuer } from './issuer.entity';
export { IssuerService } from './issuer.service';

/** The issuer module's manifest, collected by src/modules/manifests.ts. */
export const issuerModule: ModuleManifest = {
  name: 'issuer',
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
