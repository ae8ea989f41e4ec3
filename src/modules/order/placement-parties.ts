import type { ServiceContext } from '../../common/service-context';
import type { DeliveryMode, Distributor } from '../distributor/distributor.entity';
import { distributorNotFound } from '../distributor/distributor.errors';
import type { DistributorService } from '../distributor/distributor.service';
import { Investor } from '../investor/investor.entity';
import { investorNotFound, investorNotTrading } from '../investor/investor.errors';
import { shareClassNotFound, shareClassNotTrading } from '../share-class/share-class.errors';
import type { ShareClassRecord, ShareClassService } from '../share-class/share-class.service';

/** The records an order is placed for, as the caller may see them. */
export interface PlacementParties {
  distributor: Distributor;
  investor: Investor;
  shareClass: ShareClassRecord;
  /** The distributor's grant of the share class. */
  deliveryMode: DeliveryMode;
}

/**
 * The parties of a placement, both flows and both surfaces: the distributor (the caller's own;
 * ops may name any), its investor, and a share class granted to that distributor. Each missing
 * or foreign party answers like a missing one, in the order the description lists them
 * (`distributorId`, `investorId`, `shareClassId not found`); then an investor or share class that
 * is not `active` is refused (409). Ids arrive already read as the caller's surface names them.
 */
export async function placementParties(
  ctx: ServiceContext,
  deps: { distributors: DistributorService; shareClasses: ShareClassService },
  ids: { distributorId: string | null; investorId: string | null; shareClassId: string },
): Promise<PlacementParties> {
  const distributor = ids.distributorId ? await deps.distributors.findVisible(ctx, ids.distributorId) : null;
  if (!distributor) throw distributorNotFound();
  const investor = ids.investorId ? await ctx.em.findOne(Investor, { id: ids.investorId, distributor: distributor.id }) : null;
  if (!investor) throw investorNotFound();
  const deliveryMode = (await deps.distributors.grantsOf(ctx.em, distributor.id)).get(ids.shareClassId) as DeliveryMode | undefined;
  const shareClass = deliveryMode ? await deps.shareClasses.record(ctx, ids.shareClassId) : undefined;
  if (!shareClass || !deliveryMode) throw shareClassNotFound();
  if (investor.status !== 'active') throw investorNotTrading(ctx.access.shownId(investor.id, 'investor'), investor.status);
  if (shareClass.status !== 'active') throw shareClassNotTrading(shareClass.id, shareClass.status);
  return { distributor, investor, shareClass, deliveryMode };
}
