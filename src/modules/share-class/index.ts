import { ShareClassOpsResolver, ShareClassResolver } from './share-class.resolver';
import { FundShareClassesResolver } from './fund-share-classes.resolver';
import { ShareClass } from './share-class.entity';
import { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';
import type { ShareClassService } from './share-class.service';

// What other modules use of share-class: they import it from here, never from its files.
export { navToleranceBps } from './nav-tolerance';
export { ShareClass, WEEKDAYS_MONDAY_TO_FRIDAY } from './share-class.entity';
export { shareClassNotFound, shareClassNotTrading } from './share-class.errors';
export { SubRedemption } from './share-class.parts';
export { ShareClassService } from './share-class.service';
export type { ShareClassRecord } from './share-class.service';

/** The services the share-class module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    'share-class': {
      shareClass: ShareClassService;
    };
  }
}

/** The share-class module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const shareClassModule: ModuleManifest<'share-class'> = {
  name: 'share-class',
  services: { shareClass: true },
  resolvers: [ShareClassResolver, ShareClassOpsResolver, FundShareClassesResolver],
  entities: [ShareClass, ShareClassMeta, ShareClassDetails, ShareClassMetrics, ShareClassOverview, SubRedemption, BankDetails],
  mutationRoles: {
    createShareClass: 'operator',
    updateShareClass: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    createShareClass: nothing,
    updateShareClass: nothing,
  },
  visibility: {
    ShareClass: { shareClass: (sc) => sc.id },
    ShareClassMeta: 'part',
    ShareClassDetails: 'part',
    ShareClassMetrics: 'part',
    ShareClassOverview: 'part',
    SubRedemption: 'part',
    BankDetails: 'part',
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return */
