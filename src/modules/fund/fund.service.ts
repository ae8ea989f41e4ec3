import type { FilterQuery } from '@mikro-orm/core';
import { nextId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { cleared, optional, readInput, required } from '../../common/validate';
import { paginate } from '../../persistence/pagination';
import type { IssuerService } from '../issuer';
import { Fund } from './fund.entity';
import { fundNotFound } from './fund.errors';

export interface FundFields {
  issuerId?: string | null;
  name?: string | null;
  description?: string | null;
}

/** Funds of issuers: provisioned and read by ops only. */
export class FundService {
  constructor(private readonly issuers: IssuerService) {}

  async create(ctx: ServiceContext, input: FundFields): Promise<Fund> {
    ctx.access.requireOps();
    const fields = readInput((p) => ({
      issuerId: p.take('issuerId', () => required(input.issuerId, 'issuerId')),
      name: p.take('name', () => required(input.name, 'name').trim()),
      description: p.take('description', () => optional(input.description, 'description')?.trim()),
    }));
    const issuer = await this.issuers.get(ctx, fields.issuerId);
    const fund = ctx.em.create(Fund, { id: await nextId(ctx.em, 'FN'), issuer, name: fields.name, description: fields.description });
    await ctx.em.flush();
    return fund;
  }

  async update(ctx: ServiceContext, id: string, input: Omit<FundFields, 'issuerId'>): Promise<Fund> {
    const fund = await this.get(ctx, id);
    if (input.name !== undefined) fund.name = required(input.name, 'name').trim();
    if (input.description !== undefined) fund.description = cleared(optional(input.description, 'description'));
    await ctx.em.flush();
    return fund;
  }

  async get(ctx: ServiceContext, id: string): Promise<Fund> {
    ctx.access.requireOps();
    const fund = await ctx.em.findOne(Fund, { id: required(id, 'fundId') });
    if (!fund) throw fundNotFound(id);
    return fund;
  }

  async list(ctx: ServiceContext, filter: { issuerId?: string | null } = {}, page: { first?: number | null; after?: string | null } = {}) {
    ctx.access.requireOps();
    const where: FilterQuery<Fund> = {};
    const issuerId = optional(filter.issuerId, 'issuerId');
    if (issuerId) where.issuer = issuerId;
    return paginate(ctx.em, Fund, where, page);
  }
}
