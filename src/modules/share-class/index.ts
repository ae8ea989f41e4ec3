import { ShareClassOpsResolver, ShareClassResolver } from './share-class.resolver';
import { FundShareClassesResolver } from './fund-share-classes.resolver';
import { ShareClass } from './share-class.entity';
import { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';

// What other modules use of share-class: they import it from here, never from its files.
export { navToleranceBps } from './nav-tolerance';
export { ShareClass, WEEKDAYS_MONDAY_TO_FRIDAY } from './share-class.entity';
export { shareClassNotFound, shareClassNotTrading } from './share-class.errors';
export { SubRedemption } from './share-class.parts';
export { ShareClassService } from './share-class.service';
export type { ShareClassRecord } from './share-class.service';

/** The share-class module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const shareClassModule: ModuleManifest = {
  name: 'share-class',
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
