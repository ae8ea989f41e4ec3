import { DealingResolver } from './dealing.resolver';
import { DealingCalendar } from './dealing-calendar.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { DealingService } from './dealing.service';

// What other modules use of dealing: they import it from here, never from its files.
export { DEFAULT_CALENDAR, dateIn, dealingDates, plusDays } from './dealing-calendar';
export { DealingService } from './dealing.service';
export type { DealingShareClass } from './dealing.service';
export { assertUnlocked, unlockedBalance } from './lock-up';
export type { LockUp, LotView } from './lock-up';

/** The services the dealing module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    dealing: {
      dealing: DealingService;
    };
  }
}

/** The dealing module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const dealingModule: ModuleManifest<'dealing'> = {
  name: 'dealing',
  services: { dealing: true },
  resolvers: [DealingResolver],
  entities: [DealingCalendar],
  mutationRoles: {
    setDealingCalendar: 'operator',
    addDealingHolidays: 'operator',
    removeDealingHolidays: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    setDealingCalendar: nothing,
    addDealingHolidays: nothing,
    removeDealingHolidays: nothing,
  },
  visibility: {
    DealingPreview: 'ops',
    DealingDatesView: 'part',
    DealingCalendar: { shareClass: (c) => ref(c.shareClass) },
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
