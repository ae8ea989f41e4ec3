import { canSee } from '../../common/principal';
import type { ServiceContext } from '../../common/service-context';
import { Distributor, DistributorHost } from './distributor.entity';

export class DistributorService {
  /** The distributor a surface-R hostname is mapped to, or null ("hostname provisioning"). */
  async resolveHost(ctx: Pick<ServiceContext, 'em'>, hostname: string): Promise<string | null> {
    const mapping = await ctx.em.findOne(DistributorHost, { hostname: hostname.toLowerCase() });
    return mapping ? mapping.distributor.id : null;
  }

  /** A distributor the caller may act for; another's answers like a missing one (null). */
  async findVisible(ctx: ServiceContext, id: string): Promise<Distributor | null> {
    if (!canSee(ctx.principal, id)) return null;
    return ctx.em.findOne(Distributor, { id });
  }
}
