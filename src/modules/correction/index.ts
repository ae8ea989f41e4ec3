import { NavCorrectionResolver } from './nav-correction.resolver';
import { NavCompensation } from './nav-compensation.entity';
import type { ModuleManifest } from '../../access/module-manifest';
import type { NavCorrections } from './nav-correction';
import { isNavCorrectionEvent, NAV_CORRECTION_EVENTS, navCorrectionWebhookData } from './nav-correction-events';
import { namedInPayload } from '../../access/webhook-event-family';

// What other modules use of correction: they import it from here, never from its files.
export { NavCorrections } from './nav-correction';
export type { NavCorrectionArgs, NavCorrectionEffect } from './nav-correction';
export { NAV_CORRECTION_EVENTS, isNavCorrectionEvent, navCorrectionWebhookData } from './nav-correction-events';
export type { NavCorrectionWebhookData } from './nav-correction-events';

/** The services the correction module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    correction: {
      navCorrections: NavCorrections;
    };
  }
}

/** The correction module's manifest, collected by src/modules/manifests.ts. */
export const correctionModule: ModuleManifest<'correction'> = {
  name: 'correction',
  services: { navCorrections: true },
  resolvers: [NavCorrectionResolver],
  entities: [NavCompensation],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  /** The webhook events it emits (src/access/webhook-event-family.ts). */
  webhookEvents: { listed: 5, types: NAV_CORRECTION_EVENTS, logs: isNavCorrectionEvent, deliveredAs: namedInPayload, data: navCorrectionWebhookData },
  visibility: {
    NavCorrectionPreview: 'ops',
    NavRepricing: 'part',
    NavCompensation: 'part',
  },
};
