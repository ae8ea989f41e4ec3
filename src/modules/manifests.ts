/*
 * The order of these imports does not matter: the schema lists root fields in the modules' order
 * below (src/transports/graphql/root-field-order.ts), not in the order resolvers are loaded.
 */
import { authModule } from './auth';
import { distributorModule } from './distributor';
import { dealingModule } from './dealing';
import { fundModule } from './fund';
import { healthModule } from './health';
import { holdingModule } from './holding';
import { investorModule } from './investor';
import { issuerModule } from './issuer';
import { navModule } from './nav';
import { onboardingModule } from './onboarding';
import { orderModule } from './order';
import { shareClassModule } from './share-class';
import { tokenModule } from './token';
import { webhookModule } from './webhook';
import { approvalModule } from './approval';
import { auditModule } from './audit';
import { bookModule } from './book';
import { chainModule } from './chain';
import { settlementModule } from './settlement';
import { distributionModule } from './distribution';
import { registerModule } from './register';
import { idempotencyModule } from './idempotency';
import { correctionModule } from './correction';
import { eligibilityModule } from './eligibility';
import type { OpsRules } from '../access/duties';
import { foldManifests, type ModuleManifest } from '../access/module-manifest';

/**
 * Every module, in the modules' order (src/modules/module-order.json, which the import rules of
 * .dependency-cruiser.cjs read too; docs/architecture.md#modules). A module is a folder of src/modules/ with a
 * front door (`index.ts`) whose manifest is here (test/unit/module-manifests.test.ts): the
 * GraphQL resolvers, the ORM's entities, the visibility table, the ops role and duty rules are
 * folds of this list, so no central table names a module's parts.
 */
export const MODULE_MANIFESTS: readonly ModuleManifest[] = [
  chainModule,
  issuerModule,
  fundModule,
  shareClassModule,
  navModule,
  tokenModule,
  dealingModule,
  distributorModule,
  investorModule,
  eligibilityModule,
  authModule,
  holdingModule,
  orderModule,
  settlementModule,
  distributionModule,
  correctionModule,
  approvalModule,
  registerModule,
  bookModule,
  onboardingModule,
  webhookModule,
  auditModule,
  healthModule,
  idempotencyModule,
];

/** The manifests' parts, folded once. */
export const MODULE_PARTS = foldManifests(MODULE_MANIFESTS);

/** The role and duty rules of every root field (src/access/ops-roles.ts, duties.ts), as the guard and the console read them. */
export const OPS_RULES: OpsRules = {
  mutationRoles: MODULE_PARTS.mutationRoles,
  queryRoles: MODULE_PARTS.queryRoles,
  mutationDuties: MODULE_PARTS.mutationDuties,
};
