import { DistributorOnboardingResolver, ShareClassOnboardingResolver } from './onboarding.resolver';
import { ChainActivityResolver } from './chain-activity.resolver';
import { type ModuleManifest } from '../../access/module-manifest';
import type { OnboardingService } from './onboarding.service';

/** The services the onboarding module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    onboarding: {
      onboarding: OnboardingService;
    };
  }
}

/** The onboarding module's manifest, collected by src/modules/manifests.ts. */
export const onboardingModule: ModuleManifest<'onboarding'> = {
  name: 'onboarding',
  services: { onboarding: true },
  resolvers: [ShareClassOnboardingResolver, DistributorOnboardingResolver, ChainActivityResolver],
  entities: [],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  visibility: {
    Onboarding: 'ops',
    OnboardingItem: 'part',
  },
};
