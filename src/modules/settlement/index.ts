import { ChainTransactionOrderResolver, OrderChainResolver } from './order-chain.resolver';
import { DealingSettlementResolver } from './dealing-settlement.resolver';
import { ChainBatchOrder } from './chain-batch.entity';
import { LotFreeze } from './lot-freeze.entity';
import { ends } from '../../access/duties';
import { orderOfCorrelation } from './order-correlation';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import { Order } from '../order';
import type { OneStepOutcomes } from './one-step-outcomes';
import type { SettlementOnChain } from './settlement-onchain';
import type { LockUpOnChain } from './lock-up-onchain';
import type { DealingDateSettlement } from './dealing-settlement';

// What other modules use of settlement: they import it from here, never from its files.
export { navOfDealingDate } from './dealing-pricing';
export { ORDER_CORRELATION_PREFIX } from './order-correlation';
export { LockUpOnChain } from './lock-up-onchain';

/** The services the settlement module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    settlement: {
      oneStepOutcomes: OneStepOutcomes;
      settlementOnChain: SettlementOnChain | null;
      lockUpOnChain: LockUpOnChain | null;
      dealingSettlement: DealingDateSettlement | null;
    };
  }
}

/** The settlement module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const settlementModule: ModuleManifest<'settlement'> = {
  name: 'settlement',
  services: { oneStepOutcomes: true, settlementOnChain: true, lockUpOnChain: true, dealingSettlement: true },
  resolvers: [OrderChainResolver, ChainTransactionOrderResolver, DealingSettlementResolver],
  entities: [ChainBatchOrder, LotFreeze],
  mutationRoles: {
    settleDealingDate: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    settleDealingDate: ends('orderSettlement'),
  },
  visibility: {
    /**
     * The chain module's type, ruled here: the chain port knows no orders (.dependency-cruiser.cjs), and that a
     * settlement transaction is seen with its order is settlement's rule (its hash is public on chain anyway);
     * the gateway's other transactions are operations'.
     */
    ChainTransaction: {
      owner: async (tx, ctx) => {
        // The chain keeps an opaque correlation: an order's intent names the order in it.
        const orderId = orderOfCorrelation(tx.correlation);
        return orderId ? ref((await ctx.loaders.byId(Order).load(orderId))?.distributor) : null;
      },
    },
    /** Dealing-date settlement is operations' work. */
    DealingSettlementPreview: 'ops',
    DealingSettlement: 'ops',
    DealingSettlementRow: 'part',
    DealingSettlementFailure: 'part',
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument */
