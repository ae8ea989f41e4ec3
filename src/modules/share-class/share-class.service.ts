import { hasIdFormat } from '../../common/ids';
import { distributorScope } from '../../common/principal';
import type { ServiceContext } from '../../common/service-context';
import { required } from '../../common/validate';
import { ShareClassGrant } from '../distributor/distributor.entity';
import { Token } from '../token/token.entity';
import { ShareClass } from './share-class.entity';
import { invalidShareClassIdFormat, shareClassNotFound } from './share-class.errors';

/**
 * Share classes as a principal sees them: ops see all; a distributor sees those granted to it,
 * and an ungranted one answers exactly like a missing one.
 */
export class ShareClassService {
  /** Every share class visible to the caller, ordered by id. */
  async listVisible(ctx: ServiceContext): Promise<ShareClass[]> {
    const scope = distributorScope(ctx.principal);
    if (scope === null) return ctx.em.find(ShareClass, {}, { orderBy: { id: 'asc' } });
    const grants = await ctx.em.find(ShareClassGrant, { distributor: scope }, { populate: ['shareClass'], orderBy: { shareClass: { id: 'asc' } } });
    return grants.map((g) => g.shareClass);
  }

  /** One visible share class; `invalid shareClassId format` or `shareClassId not found` otherwise. */
  async getVisible(ctx: ServiceContext, shareClassId: unknown): Promise<ShareClass> {
    const id = required(shareClassId, 'shareClassId');
    if (!hasIdFormat(id, 'SC')) throw invalidShareClassIdFormat();
    const scope = distributorScope(ctx.principal);
    const found = await ctx.em.findOne(ShareClass, { id });
    if (!found) throw shareClassNotFound();
    if (scope !== null) {
      const grant = await ctx.em.count(ShareClassGrant, { distributor: scope, shareClass: id });
      if (!grant) throw shareClassNotFound();
    }
    return found;
  }

  /** The share class's primary token, whose chain is its `defaultChainId`. */
  async primaryToken(ctx: ServiceContext, shareClassId: string): Promise<Token | null> {
    return ctx.em.findOne(Token, { shareClass: shareClassId, isPrimary: true });
  }
}
