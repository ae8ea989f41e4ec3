import { Access } from '../access/access';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ChainTransaction, ChainTxStatus } from '../modules/chain/chain-transaction.entity';
import type { Services } from '../services';
import { runInScope } from '../common/request-scope';
import type { ServiceContext } from '../access/service-context';
import { Token } from '../modules/token/token.entity';
import { InvestorWallet } from '../modules/investor/investor.entity';
import { statusesOf, TRANSITIONS } from '../modules/order/order-states';
import { OrderFlow } from '../modules/order/order.entity';
import { logger } from '../common/logger';
import { DEMO_CHAIN_ID } from './seed';

/** A status of one flow, as the transition table names them. */
type StatusOf<F extends OrderFlow> = (typeof TRANSITIONS)[F][number]['to'];

/** What demo orders are moved by: the services, as ops, exactly as the doors move them. */
const DEMO_ORDERS_ACTOR = 'demo-seed';
const DEMO_TRANSFER_HASH = `0x${'5eed'.repeat(16)}`;
/** One transfer settles one order (docs/custody.md): the one-step demo settlement names its own. */
const DEMO_ONE_STEP_TRANSFER_HASH = `0x${'5e7d'.repeat(16)}`;

/**
 * A one-step order settles at its dealing date's NAV, struck (docs/custody.md): the demo publishes
 * it now, at the share class's live close, through the NAV service like any ops door. The demo
 * orders are of the daily USD class, whose orders placed now are dealt today (seed.ts), so the
 * NAV struck now is their dealing date's.
 */
async function publishDealingDateNav(services: Services, ctx: ServiceContext, orderId: string): Promise<void> {
  const { Order } = await import('../modules/order/order.entity');
  const order = await ctx.em.findOneOrFail(Order, { id: orderId });
  const live = await services.nav.latest(ctx, order.shareClass.id);
  if (live) await services.nav.publish(ctx, { shareClassId: order.shareClass.id, close: live.close });
}

/**
 * The demo blotter: an order in every state of both flows, each brought there through the services
 * (the two-step pushes go to the configured supply-side platform, the simulator in development),
 * so their history, events and holdings are those of real orders. Statuses come from the flows'
 * own lists: a new state without a way here fails the seeding test.
 */
export async function seedDemoOrders(
  em: EntityManager,
  services: Services,
  demo: { distributorId: string; investorId: string; shareClassIds: string[] },
): Promise<Record<string, string[]>> {
  const ctx = () => ({ em: em.fork(), access: Access.ops(DEMO_ORDERS_ACTOR) });
  const parties = { distributorId: demo.distributorId, investorId: demo.investorId, shareClassId: demo.shareClassIds[0] };
  const twoStep = services.twoStep;
  const oneStep = services.oneStepOrder;
  const transferHash = await demoTransferHash(em, services, demo.shareClassIds[0], demo.investorId);
  const outcome = (orderId: string, name: 'accepted' | 'rejected' | 'settled' | 'failed') =>
    twoStep.recordSupplyOutcome(ctx(), {
      orderId,
      outcome: name,
      ...(name === 'rejected' || name === 'failed' ? { reason: `demo: ${name} by the platform` } : {}),
      ...(name === 'settled' ? { transferHash } : {}),
    });
  const TWO_STEP: Record<StatusOf<OrderFlow.two_step>, (id: string) => Promise<unknown>> = {
    created: async () => undefined,
    cancelled: (id) => twoStep.cancel(ctx(), id, 'demo: changed my mind'),
    submitted: (id) => twoStep.push(ctx(), id),
    accepted: async (id) => (await twoStep.push(ctx(), id), outcome(id, 'accepted')),
    rejected: async (id) => (await twoStep.push(ctx(), id), outcome(id, 'rejected')),
    settled: async (id) => (await twoStep.push(ctx(), id), await outcome(id, 'accepted'), outcome(id, 'settled')),
    failed: async (id) => (await twoStep.push(ctx(), id), await outcome(id, 'accepted'), outcome(id, 'failed')),
  };
  const ONE_STEP: Record<StatusOf<OrderFlow.one_step>, (id: string) => Promise<unknown>> = {
    pending: async () => undefined,
    cancelled: (id) => oneStep.cancel(ctx(), id, "demo: cancelled at the investor's request"),
    accepted: (id) => oneStep.accept(ctx(), id),
    rejected: (id) => oneStep.reject(ctx(), id, "demo: outside the investor's mandate"),
    // On a chain the gateway writes to, the mint is real and the order settles at its confirmation depth.
    settled: async (id) => (
      await oneStep.accept(ctx(), id),
      await publishDealingDateNav(services, ctx(), id),
      services.oneStepSettlement.settle(ctx(), id, services.settlementOnChain ? undefined : DEMO_ONE_STEP_TRANSFER_HASH)
    ),
    failed: async (id) => (await oneStep.accept(ctx(), id), services.oneStepSettlement.fail(ctx(), id, 'demo: transfer reverted')),
  };
  const placed: Record<string, string[]> = { two_step: [], one_step: [] };
  await runInScope({ actor: DEMO_ORDERS_ACTOR }, async () => {
    for (const [i, status] of statusesOf(OrderFlow.two_step).entries()) {
      const order = await twoStep.create(ctx(), { ...parties, amountSubscription: 1000 * (i + 2), externalRef: `demo-${status}` });
      try {
        await TWO_STEP[status as StatusOf<OrderFlow.two_step>](order.id);
      } catch (err) {
        // Without a reachable supply-side platform the pushed states are left out, not the start.
        logger.warn({ err: (err as Error).message, status }, 'demo two-step order left created');
      }
      placed.two_step.push(order.id);
    }
    for (const [i, status] of statusesOf(OrderFlow.one_step).entries()) {
      const order = await oneStep.placeSubscription(ctx(), { ...parties, amount: String(1500 * (i + 1)) });
      await ONE_STEP[status as StatusOf<OrderFlow.one_step>](order.id);
      placed.one_step.push(order.id);
    }
    // A pending redemption too: its tokens are held back from further redemptions.
    placed.one_step.push((await oneStep.placeRedemption(ctx(), { ...parties, tokenCount: '25' })).id);
  });
  return placed;
}

/**
 * The transfer a demo two-step settlement names. On a chain the gateway reads, the settlement is
 * checked there (a Transfer of the class's token to the investor's wallet): the mint of that
 * investor's demo holding (bringDemoOnChain) is such a transfer. Without a chain, a placeholder nobody checks.
 */
async function demoTransferHash(em: EntityManager, services: Services, shareClassId: string, investorId: string): Promise<string> {
  if (!services.settlementOnChain) return DEMO_TRANSFER_HASH;
  const token = await em.findOne(Token, { shareClass: shareClassId, chainId: DEMO_CHAIN_ID, isPrimary: true });
  const wallet = await em.findOne(InvestorWallet, { investor: investorId, chainId: DEMO_CHAIN_ID });
  // The demo book mints to several holders: the mint whose calldata names this investor's wallet (an address word).
  if (!token || !wallet) return DEMO_TRANSFER_HASH;
  const word = wallet.address.slice(2).toLowerCase().padStart(64, '0');
  const mint = await em.findOne(
    ChainTransaction,
    { chainId: DEMO_CHAIN_ID, purpose: 'deploy.mint', toAddress: token.contractAddress, status: ChainTxStatus.confirmed, data: { $like: `%${word}%` } },
    { orderBy: { id: 'desc' } },
  );
  return mint?.hash ?? DEMO_TRANSFER_HASH;
}
