import { OneStepOrderResolver } from './one-step.resolver';
import { OrderResolver } from './order.resolver';
import { TwoStepResolver } from './two-step.resolver';
import { Order, OrderStatusEntry } from './order.entity';
import { SettlementTransferRecord } from './settlement-transfer.entity';
import { ends, nothing, step } from '../../access/duties';
import { ReadAlways } from '../../persistence/field-reads';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { OrderService } from './order.service';
import type { TwoStepService } from './two-step.service';
import type { OneStepOrderService } from './one-step.service';
import type { OneStepSettling } from './one-step-settling';
import { ORDER_EVENT_TYPES } from './order-states';
import { namedInPayload } from '../../access/webhook-event-family';

// What other modules use of order: they import it from here, never from its files.
export { noTokenOnChain, walletRequiredBeforeSettlement, wrongStatus } from './one-step.errors';
export { lockOneStepOrder, lockOneStepOrders } from './order-locks';
export { ORDER_EVENT_TYPES, TRANSITIONS, assertMove, statusOfEvent } from './order-states';
export type { TransitionActor } from './order-states';
export { recordTransition, recordTransitions } from './order-transition';
export { Order, OrderFlow, OrderType } from './order.entity';
export { minorUnits, priceAtNav, priceRedemption, tokensForAmount } from './order.pricing';
export type { SettlementPriced } from './order.pricing';
export { OrderService } from './order.service';
export { placementParties } from './placement-parties';
export type { PlacementParties } from './placement-parties';
export { defaultChainRefusal, holdWalletRefusal, investorPrerequisiteRefusal, pricingRefusal, tradingRefusal } from './placement-prerequisites';
export { claimTransfer, recordTransfers } from './settlement-transfers';
export type { SettlementTransfer } from './settlement-transfers';
export { providerNotConfigured } from './two-step.errors';

// A page that reads only the selected columns of its orders still reads the owner its visibility checks.
ReadAlways(Order, 'distributor');

/** The services the order module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    order: {
      order: OrderService;
      twoStep: TwoStepService;
      oneStepOrder: OneStepOrderService;
      oneStepSettlement: OneStepSettling;
    };
  }
}

/** The order module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const orderModule: ModuleManifest<'order'> = {
  name: 'order',
  services: { order: true, twoStep: true, oneStepOrder: true, oneStepSettlement: true },
  resolvers: [OrderResolver, TwoStepResolver, OneStepOrderResolver],
  entities: [Order, OrderStatusEntry, SettlementTransferRecord],
  mutationRoles: {
    placeOneStepSubscription: 'operator',
    placeOneStepRedemption: 'operator',
    cancelOneStepOrder: 'operator',
    acceptOneStepOrder: 'operator',
    rejectOneStepOrder: 'operator',
    settleOneStepOrder: 'operator',
    failOneStepOrder: 'operator',
    createTwoStepSubscription: 'operator',
    pushTwoStepSubscription: 'operator',
    cancelTwoStepSubscription: 'operator',
    recordSupplyOutcome: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    placeOneStepSubscription: step('orderSettlement'),
    placeOneStepRedemption: step('orderSettlement'),
    cancelOneStepOrder: nothing,
    acceptOneStepOrder: step('orderSettlement'),
    rejectOneStepOrder: nothing,
    /** Without a transfer hash, on a chain the gateway writes to: the order's mint or burn. */
    settleOneStepOrder: ends('orderSettlement'),
    failOneStepOrder: nothing,
    /** Two-step orders are settled by the supply-side platform; the gateway sends nothing for them. */
    createTwoStepSubscription: nothing,
    pushTwoStepSubscription: nothing,
    cancelTwoStepSubscription: nothing,
    recordSupplyOutcome: nothing,
  },
  /** The webhook events it emits (src/access/webhook-event-family.ts). */
  webhookEvents: { listed: 1, types: ORDER_EVENT_TYPES, logs: (type) => type === 'order.transition', deliveredAs: namedInPayload, data: 'order' },
  visibility: {
    CancelOrderResult: 'open',
    Order: { owner: (o) => ref(o.distributor) },
    OrderStatusEntry: 'part',
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
