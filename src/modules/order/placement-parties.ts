import type { ServiceContext } from '../../access/service-context';
import { type DeliveryMode, distributorNotFound } from '../distributor';
import { investorNotFound, investorNotTrading } from '../investor';
import { shareClassNotFound, type ShareClassRecord, type ShareClassService } from '../share-class';
import { refuse, tradingRefusal } from './placement-prerequisites';
import { placementPartyRow } from './order-placement.queries';

/** The records an order is placed for, as the caller may see them, and what placement asks of them. */
export interface PlacementParties {
  distributorId: string;
  investorId: string;
  shareClass: ShareClassRecord;
  /** The distributor's grant of the share class. */
  deliveryMode: DeliveryMode;
  /** Whether operations granted the investor the share class. */
  investorGranted: boolean;
  /** The investor's wallet in use on the share class's default chain, if any. */
  investorWallet: string | null;
  /** The distributor's own wallet on that chain, if any (`hold` delivery). */
  distributorWallet: string | null;
}

/**
 * The parties of a placement, both flows and both surfaces: the distributor (the caller's own;
 * ops may name any), its investor, and a share class granted to that distributor. Each missing
 * or foreign party answers like a missing one, in the order the description lists them
 * (`distributorId`, `investorId`, `shareClassId not found`); then an investor or share class that
 * is not `active` is refused (409). Ids arrive already read as the caller's surface names them.
 * The share class itself is reference data, read from the cache.
 *
 * A subscription needs no transaction around this read and its placement (`recordPlacement`, one
 * statement): no row is locked, so under READ COMMITTED a change committing between the two would
 * go unseen inside a transaction just the same, and the two round trips of BEGIN and COMMIT were
 * half of the placement's. A redemption places in a transaction: it locks the holding.
 */
export async function placementParties(
  ctx: ServiceContext,
  deps: { shareClasses: ShareClassService },
  ids: { distributorId: string | null; investorId: string | null; shareClassId: string },
): Promise<PlacementParties> {
  if (!ids.distributorId || !ctx.access.sees(ids.distributorId)) throw distributorNotFound();
  const shareClass = await deps.shareClasses.record(ctx, ids.shareClassId);
  const chainId = shareClass?.primaryChainId ?? null;
  const row = await placementPartyRow(ctx.em, { distributorId: ids.distributorId, investorId: ids.investorId, shareClassId: ids.shareClassId, chainId });
  if (!row) throw distributorNotFound();
  if (!ids.investorId || !row.investor_id || !row.investor_status) throw investorNotFound();
  if (!shareClass || !row.delivery_mode) throw shareClassNotFound();
  if (row.investor_status !== 'active') throw investorNotTrading(ctx.access.shownId(row.investor_id, 'investor'), row.investor_status);
  refuse(tradingRefusal(shareClass));
  return {
    distributorId: ids.distributorId,
    investorId: row.investor_id,
    shareClass,
    deliveryMode: row.delivery_mode,
    investorGranted: row.investor_granted,
    investorWallet: row.investor_wallet,
    distributorWallet: row.distributor_wallet,
  };
}
