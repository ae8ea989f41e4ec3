import { DistributorHostResolver, DistributorResolver, DistributorWalletResolver, ShareClassGrantResolver } from './distributor.resolver';
import { ShareClassGrantsResolver } from './share-class-grants.resolver';
import { Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from './distributor.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { DistributorService } from './distributor.service';

// What other modules use of distributor: they import it from here, never from its files.
export { DeliveryMode, Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from './distributor.entity';
export { distributorNotFound, distributorNotFoundNamed, hostNotProvisioned } from './distributor.errors';
export { DistributorService } from './distributor.service';

/** The services the distributor module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    distributor: {
      distributor: DistributorService;
    };
  }
}

/** The distributor module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const distributorModule: ModuleManifest<'distributor'> = {
  name: 'distributor',
  services: { distributor: true },
  resolvers: [DistributorResolver, DistributorHostResolver, DistributorWalletResolver, ShareClassGrantResolver, ShareClassGrantsResolver],
  entities: [Distributor, DistributorHost, DistributorWallet, ShareClassGrant],
  mutationRoles: {
    createDistributor: 'operator',
    updateDistributor: 'operator',
    addDistributorHost: 'operator',
    bindDistributorHost: 'operator',
    removeDistributorHost: 'operator',
    setDistributorWallet: 'operator',
    grantShareClass: 'operator',
    revokeShareClass: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    createDistributor: nothing,
    updateDistributor: nothing,
    addDistributorHost: nothing,
    bindDistributorHost: nothing,
    removeDistributorHost: nothing,
    setDistributorWallet: nothing,
    grantShareClass: nothing,
    revokeShareClass: nothing,
  },
  visibility: {
    Distributor: { owner: (d) => d.id },
    DistributorHost: { owner: (h) => ref(h.distributor) },
    DistributorWallet: { owner: (w) => ref(w.distributor) },
    ShareClassGrant: { owner: (g) => ref(g.distributor) },
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return */
