import { HoldingResolver } from './holding.resolver';
import { Holding } from './holding.entity';
import { HoldingLot } from './holding-lot.entity';
import { HoldingMovement } from './holding-movement.entity';
import { type ModuleManifest } from '../../access/module-manifest';
import { investorOwner } from '../investor';
import type { HoldingLedger } from './holding-ledger';
import type { HoldingService } from './holding.service';
import { HOLDING_EVENTS, holdingWebhookData, isHoldingEvent } from './holding-events';

// What other modules use of holding: they import it from here, never from its files.
export { HOLDING_EVENTS, holdingWebhookData, isHoldingEvent } from './holding-events';
export type { HoldingWebhookData } from './holding-events';
export { HoldingKey, HoldingLedger, OpenOrders, SettleResult } from './holding-ledger';
export { holdingKey, insertLot, openLotsOf, takeOldest } from './holding-lots';
export type { BookedLot, OpenLot, WorkingLot } from './holding-lots';
export { Holding } from './holding.entity';
export { HoldingService } from './holding.service';
export type { HoldingAdjustmentInput } from './holding.service';

/** The GraphQL input of `requestHoldingAdjustment` (approval answers it), beside the plain shape of the same name above. */
export { HoldingAdjustmentInput as HoldingAdjustmentInputType } from './holding.types';

/** The services the holding module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    holding: {
      ledger: HoldingLedger;
      holding: HoldingService;
    };
  }
}

/** The holding module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const holdingModule: ModuleManifest<'holding'> = {
  name: 'holding',
  services: { ledger: true, holding: true },
  resolvers: [HoldingResolver],
  entities: [Holding, HoldingLot, HoldingMovement],
  mutationRoles: {},
  queryRoles: {},
  mutationDuties: {},
  /** The webhook events it emits (src/access/webhook-event-family.ts). */
  webhookEvents: { listed: 4, types: HOLDING_EVENTS, logs: isHoldingEvent, deliveredAs: (e) => e.type, data: holdingWebhookData },
  visibility: {
    HoldingView: { owner: (h, ctx) => investorOwner(h.investorId, ctx) },
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument */
