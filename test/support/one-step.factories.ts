import { randomBytes } from 'node:crypto';
import { Access } from '../../src/access/access';
import { entryIdOf, Nav } from '../../src/modules/nav/nav.entity';
import { Order as OrderEntity } from '../../src/modules/order/order.entity';
import { aNav, dealingDateStrikeAt } from './factories';
import { runInScope } from '../../src/common/request-scope';
import type { EntityRecord } from '../../src/persistence/read-record';
import type { Distributor } from '../../src/modules/distributor/distributor.entity';
import type { Investor } from '../../src/modules/investor/investor.entity';
import type { Order } from '../../src/modules/order/order.entity';
import type { ShareClass } from '../../src/modules/share-class/share-class.entity';
import type { TestGateway } from './gateway';
import { CHECKER_PRINCIPAL } from './approval.factories';

const OPS = Access.ops('factory');

export const TRANSFER_HASH = `0x${'ab'.repeat(32)}`;

/** Another transfer hash: one transfer settles one order (docs/custody.md), so each settlement names its own. */
export const aTransferHash = () => `0x${randomBytes(32).toString('hex')}`;

/**
 * The NAV of the order's dealing date, struck at the gateway's now when that date is today (late
 * that day when it is gone by; dealingDateStrikeAt) at `close` (default: the share class's live
 * NAV, so the settlement prices as the acceptance estimated): an order settles at its own dealing
 * date's NAV and not before it is struck.
 */
export async function aDealingDateNav(gw: TestGateway, order: { id: string }, close?: string): Promise<Nav> {
  const em = gw.em();
  const o = await em.findOneOrFail(OrderEntity, { id: order.id }, { populate: ['shareClass'] });
  const { calendar } = await gw.gateway.services.dealing.rulesOf({ em }, o.shareClass);
  const at = dealingDateStrikeAt(o.dealingDate!, gw.clock.now(), calendar.timeZone);
  // One NAV a second per share class (its entryId): a second order of the same date finds it.
  const published = await em.findOne(Nav, { shareClass: o.shareClass.id, entryId: entryIdOf(at) });
  if (published) return published;
  const latest = await em.findOne(Nav, { shareClass: o.shareClass.id, publishedAt: { $lte: at } }, { orderBy: { publishedAt: 'desc' } });
  return aNav(em, o.shareClass, close ?? latest!.close, at);
}

export type OneStepStage = 'pending' | 'accepted' | 'rejected' | 'settled' | 'failed' | 'cancelled';

/**
 * A one-step order of `investor` brought to `stage` through the service, exactly as the
 * endpoints and the ops console would move it (history, events and holdings included).
 */
export async function aOneStepOrder(
  gw: TestGateway,
  parties: { distributor: Distributor; investor: Investor; shareClass: ShareClass },
  opts: {
    type?: 'subscribe' | 'redeem';
    amount?: string;
    tokenCount?: string;
    stage?: OneStepStage;
    walletAddress?: string;
    chainId?: string;
    transferHash?: string;
  } = {},
): Promise<EntityRecord<Order>> {
  const svc = gw.gateway.services.oneStepOrder;
  const ctx = () => ({ em: gw.em(), access: OPS });
  return runInScope({ actor: 'factory' }, async () => {
    const base = {
      distributorId: parties.distributor.id,
      investorId: parties.investor.id,
      shareClassId: parties.shareClass.id,
      walletAddress: opts.walletAddress,
      chainId: opts.chainId,
    };
    let order: EntityRecord<Order> =
      opts.type === 'redeem'
        ? await svc.placeRedemption(ctx(), { ...base, tokenCount: opts.tokenCount ?? '10' })
        : await svc.placeSubscription(ctx(), { ...base, amount: opts.amount ?? '1000' });
    const stage = opts.stage ?? 'pending';
    if (stage === 'cancelled') await svc.cancel(ctx(), order.id, 'cancelled by factory');
    if (stage === 'rejected') order = await svc.reject(ctx(), order.id, 'declined by factory');
    // Accepted by a second ops principal: the checker of the order's steps (src/access/duties.ts), so
    // that whoever settles it, `test-ops` included, is not alone.
    if (['accepted', 'settled', 'failed'].includes(stage))
      order = await runInScope({ actor: 'factory', principal: CHECKER_PRINCIPAL }, () => svc.accept(ctx(), order.id));
    if (stage === 'settled') {
      await aDealingDateNav(gw, order);
      order = await gw.gateway.services.oneStepSettlement.settle(ctx(), order.id, opts.transferHash ?? TRANSFER_HASH);
    }
    if (stage === 'failed') order = await gw.gateway.services.oneStepSettlement.fail(ctx(), order.id, 'out of gas');
    return order;
  });
}
