import { nextId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { cleared, containsPattern, countryCode, lei, optional, readInput, required, type Problems } from '../../common/validate';
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
    const fields = readInput((p) => ({ name: p.take('name', () => required(input.name, 'name').trim()), ...identity(input, p) }));
    const issuer = ctx.em.create(Issuer, { id: await nextId(ctx.em, 'IS'), ...fields });
    await ctx.em.flush();
    return issuer;
  }

  async update(ctx: ServiceContext, id: string, input: IssuerFields): Promise<Issuer> {
    const issuer = await this.get(ctx, id);
    const fields = readInput((p) => ({
      name: input.name !== undefined ? p.take('name', () => required(input.name, 'name').trim()) : undefined,
      ...identity(input, p),
    }));
    if (input.name !== undefined) issuer.name = fields.name!;
    if (input.lei !== undefined) issuer.lei = cleared(fields.lei);
    if (input.jurisdiction !== undefined) issuer.jurisdiction = cleared(fields.jurisdiction);
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

/** An issuer's LEI (ISO 17442) and jurisdiction (ISO 3166-1 country), each optional. */
function identity(input: IssuerFields, p: Problems): { lei?: string; jurisdiction?: string } {
  const given = (v: unknown, field: string) => optional(v, field) !== undefined;
  return {
    lei: given(input.lei, 'lei') ? p.take('lei', () => lei(input.lei, 'lei')) : undefined,
    jurisdiction: given(input.jurisdiction, 'jurisdiction') ? p.take('jurisdiction', () => countryCode(input.jurisdiction, 'jurisdiction')) : undefined,
  };
}
