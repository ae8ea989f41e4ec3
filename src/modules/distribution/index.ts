import { DistributionResolver } from './distribution.resolver';
import { DistributionPolicy } from './distribution-policy.entity';
import { Distribution, DistributionEntitlement } from './distribution.entity';
import { ends, nothing, step } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';
import type { DistributionService } from './distribution.service';
import { DISTRIBUTION_EVENTS, distributionWebhookData, isDistributionEvent } from './distribution-events';
import { namedInPayload } from '../../access/webhook-event-family';

// What other modules use of distribution: they import it from here, never from its files.
export { DISTRIBUTION_EVENTS, distributionWebhookData, isDistributionEvent } from './distribution-events';
export type { DistributionWebhookData } from './distribution-events';
export { incomeInPeriod } from './distribution.queries';

/** The services the distribution module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    distribution: {
      distribution: DistributionService;
    };
  }
}

/** The distribution module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const distributionModule: ModuleManifest<'distribution'> = {
  name: 'distribution',
  services: { distribution: true },
  resolvers: [DistributionResolver],
  entities: [DistributionPolicy, Distribution, DistributionEntitlement],
  mutationRoles: {
    setDistributionPolicy: 'operator',
    declareDistribution: 'operator',
    payDistribution: 'operator',
    retryDistributionPayments: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    setDistributionPolicy: nothing,
    declareDistribution: step('incomeReinvestment'),
    payDistribution: ends('incomeReinvestment'),
    retryDistributionPayments: ends('incomeReinvestment'),
  },
  /** The webhook events it emits (src/access/webhook-event-family.ts). */
  webhookEvents: { listed: 3, types: DISTRIBUTION_EVENTS, logs: isDistributionEvent, deliveredAs: namedInPayload, data: distributionWebhookData },
  visibility: {
    /** Income (src/modules/distribution): a class's policy and distributions are seen with the class; an entitlement by its investor's distributor. */
    DistributionPolicy: { shareClass: (p) => p.shareClassId },
    Distribution: { shareClass: (d) => d.shareClassId },
    DistributionEntitlement: { owner: (e) => e.distributorId },
    IncomeEntry: { owner: (e) => e.distributorId },
    DistributionPreview: 'ops',
    DistributionPreviewHolder: 'part',
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return */
