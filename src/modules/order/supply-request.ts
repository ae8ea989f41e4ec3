import { Dec } from '../../common/money';
import type { SupplyOrderRequest } from '../../supply/provider';
import { DeliveryMode } from '../distributor';
import type { ShareClass } from '../share-class';
import type { Order } from './order.entity';

/** What the provider is sent: the priced order, decimals as strings. */
export function supplyRequest(order: Order, shareClass: ShareClass): SupplyOrderRequest {
  const dec = (v: string | undefined) => new Dec(v ?? '0').toFixed();
  return {
    clientOrderId: order.id,
    orderType: 'SUBSCRIPTION',
    fundId: shareClass.fund.id,
    shareClassId: shareClass.id,
    isin: shareClass.details.isin,
    distributorId: order.distributor.id,
    investorId: order.investor.id,
    amountSubscription: dec(order.amount),
    amountFeesTotal: dec(order.amountFeesTotal),
    amountPayable: dec(order.amountPayable),
    feesSubBps: order.feesSubBps ?? 0,
    currency: order.currency ?? shareClass.currency,
    deliveryMode: order.deliveryMode ?? DeliveryMode.passthrough,
    deliveryWallet: order.deliveryWallet ?? '',
    chainId: order.chainId ?? '',
    externalRef: order.externalRef ?? null,
  };
}
