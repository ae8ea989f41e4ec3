import { nextId } from '../../common/ids';
import type { ServiceContext } from '../../common/service-context';
import { cleared, containsPattern, optional, required } from '../../common/validate';
import { paginate } from '../../persistence/pagination';
import { Issuer } from './issuer.entity';
import { issuerNotFound } from './issuer.errors';

export interface IssuerFields {
  name?: string | null;
  lei?: string | null;
  jurisdiction?: string | null;
}

/** Issuers: provisioned and read by ops only. */
export class IssuerService {
  async create(ctx: ServiceContext, input: IssuerFields): Promise<Issuer> {
    ctx.access.requireOps();
    const issuer = ctx.em.create(Issuer, {
      id: await nextId(ctx.em, 'IS'),
      name: required(input.name, 'name').trim(),
      lei: optional(input.lei, 'lei')?.trim(),
      jurisdiction: optional(input.jurisdiction, 'jurisdiction')?.trim(),
    } as never);
    await ctx.em.flush();
    return issuer;
  }

  async update(ctx: ServiceContext, id: string, input: IssuerFields): Promise<Issuer> {
    const issuer = await this.get(ctx, id);
    if (input.name !== undefined) issuer.name = required(input.name, 'name').trim();
    if (input.lei !== undefined) issuer.lei = cleared(optional(input.lei, 'lei'));
    if (input.jurisdiction !== undefined) issuer.jurisdiction = cleared(optional(input.jurisdiction, 'jurisdiction'));
    await ctx.em.flush();
    return issuer;
  }

  async get(ctx: ServiceContext, id: string): Promise<Issuer> {
    ctx.access.requireOps();
    const issuer = await ctx.em.findOne(Issuer, { id: required(id, 'id') });
    if (!issuer) throw issuerNotFound(id);
    return issuer;
  }

  async list(ctx: ServiceContext, filter: { nameContains?: string | null } = {}, page: { first?: number | null; after?: string | null } = {}) {
    ctx.access.requireOps();
    const name = optional(filter.nameContains, 'nameContains');
    return paginate(ctx.em, Issuer, name ? { name: { $ilike: containsPattern(name) } } : {}, page);
  }
}
