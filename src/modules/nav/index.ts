import { NavResolver } from './nav.resolver';
import { ShareClassNavResolver } from './share-class-nav.resolver';
import { Nav } from './nav.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { NavService } from './nav.service';

// What other modules use of nav: they import it from here, never from its files.
export type { NavConfirmations, PendingNavArgs } from './nav-confirmation';
export { Nav } from './nav.entity';
export { navAwaitsConfirmation } from './nav.errors';
export { NavService } from './nav.service';

/** The services the nav module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    nav: {
      nav: NavService;
    };
  }
}

/** The nav module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const navModule: ModuleManifest<'nav'> = {
  name: 'nav',
  services: { nav: true },
  resolvers: [NavResolver, ShareClassNavResolver],
  entities: [Nav],
  mutationRoles: {
    publishNav: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    publishNav: nothing,
  },
  visibility: {
    Nav: { shareClass: (n) => ref(n.shareClass) },
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
