import { DistributorOnboardingResolver, ShareClassOnboardingResolver } from './onboarding.resolver';
import { ChainActivityResolver } from './chain-activity.resolver';
import { type ModuleManifest } from '../../access/module-manifest';

/** The onboarding module's manifest, collected by src/modules/manifests.ts. */
export const onboardingModule: ModuleManifest = {
  name: 'onboarding',
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
