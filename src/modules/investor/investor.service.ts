import { raw, type FilterQuery } from '@mikro-orm/core';
import { badRequest } from '../../common/errors';
import { nextId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { emailAddress, optional, required } from '../../common/validate';
import { paginate } from '../../persistence/pagination';
import { ShareClass, shareClassNotFound } from '../share-class';
import { distributorNotFoundNamed, type DistributorService } from '../distributor';
import { Investor, InvestorGrant } from './investor.entity';
import { investorGrantNotFound, investorNotFoundById, shareClassNotGrantedToDistributor } from './investor.errors';

export interface InvestorFilterInput {
  distributorId?: string | null;
  email?: string | null;
  externalInvestorId?: string | null;
  status?: string | null;
}

export interface RegisterInvestorInput {
  distributorId?: string | null;
  externalInvestorId?: string | null;
  email?: string | null;
  countryCode?: string | null;
}

export class InvestorService {
  constructor(private readonly distributors: DistributorService) {}

  /**
   * `POST /investor/register`: a new investor, `active`, with no grants. The API does not
   * de-duplicate: the same (distributorId, externalInvestorId) twice makes two investors.
   */
  async register(ctx: ServiceContext, input: RegisterInvestorInput): Promise<Investor> {
    ctx.access.requireCaller();
    const distributorId = required(input.distributorId, 'distributorId');
    const externalInvestorId = required(input.externalInvestorId, 'externalInvestorId');
    // Optional, but an address when given (`emailAddress`: linear, at most 254 characters).
    const email = optional(input.email, 'email');
    if (email !== undefined) emailAddress(email);
    const countryCode = optional(input.countryCode, 'countryCode');
    const distributor = await this.distributors.findVisible(ctx, distributorId);
    if (!distributor) throw distributorNotFoundNamed(distributorId);
    const investor = ctx.em.create(Investor, {
      id: await nextId(ctx.em, 'IN'),
      distributor,
      externalInvestorId,
      email,
      countryCode,
      status: 'active',
    });
    await ctx.em.flush();
    return investor;
  }

  /* ---- ops ---- */

  /** Ops: one investor by `IN######` or its surface-O alias `US######`. */
  async get(ctx: ServiceContext, id: unknown): Promise<Investor> {
    ctx.access.requireOps();
    const raw = required(id, 'investorId').trim();
    const recordOf = ctx.access.recordId(raw, 'investor');
    const investor = recordOf ? await ctx.em.findOne(Investor, { id: recordOf }) : null;
    if (!investor) throw investorNotFoundById(raw);
    return investor;
  }

  /**
   * Ops: a page of investors, newest first. `email` matches case-insensitively through the
   * `lower(email)` index.
   */
  async list(ctx: ServiceContext, filter: InvestorFilterInput = {}, page: { first?: number | null; after?: string | null } = {}) {
    ctx.access.requireOps();
    const where: FilterQuery<Investor> = {};
    const distributorId = optional(filter.distributorId, 'distributorId');
    const email = optional(filter.email, 'email');
    const externalInvestorId = optional(filter.externalInvestorId, 'externalInvestorId');
    const status = optional(filter.status, 'status');
    // An id of no distributor's form matches no investor.
    if (distributorId) where.distributor = ctx.access.recordId(distributorId.trim(), 'distributor') ?? distributorId.trim();
    if (externalInvestorId) where.externalInvestorId = externalInvestorId;
    if (status) where.status = status;
    if (email) (where as Record<string, unknown>)[raw<Investor, string>((a: string) => `lower(${a}."email")`)] = email.trim().toLowerCase();
    return paginate(ctx.em, Investor, where, page);
  }

  /**
   * Ops: let an investor use a share class. Only a share class its distributor may sell can be
   * granted. Granting twice is harmless.
   */
  async grantShareClass(ctx: ServiceContext, input: { investorId?: string | null; shareClassId?: string | null }): Promise<Investor> {
    const investor = await this.get(ctx, input.investorId);
    const shareClassId = required(input.shareClassId, 'shareClassId');
    if (!(await ctx.em.count(ShareClass, { id: shareClassId }))) throw shareClassNotFound();
    if (!(await this.distributors.grantsOf(ctx.em, investor.distributor.id)).has(shareClassId)) {
      throw shareClassNotGrantedToDistributor(shareClassId, investor.distributor.id);
    }
    if (!(await ctx.em.count(InvestorGrant, { investor, shareClass: shareClassId }))) {
      ctx.em.create(InvestorGrant, { investor, shareClass: shareClassId });
      await ctx.em.flush();
    }
    return investor;
  }

  /** Ops: withdraw an investor's use of a share class. */
  async revokeShareClass(ctx: ServiceContext, input: { investorId?: string | null; shareClassId?: string | null }): Promise<Investor> {
    const investor = await this.get(ctx, input.investorId);
    const shareClassId = required(input.shareClassId, 'shareClassId');
    const grant = await ctx.em.findOne(InvestorGrant, { investor, shareClass: shareClassId });
    if (!grant) throw investorGrantNotFound(investor.id, shareClassId);
    ctx.em.remove(grant);
    await ctx.em.flush();
    return investor;
  }

  /**
   * Surface O `POST /user/register`: `email` and `name` required; `distributorId` (`PT######`)
   * defaults to the caller's own distributor, and another's answers like a missing one;
   * `uniqueId` is the partner's own reference, kept as `externalInvestorId`. The user is the
   * same investor record as on surface R (`US######` = `IN######`).
   */
  async registerUser(ctx: ServiceContext, input: RegisterUserInput): Promise<Investor> {
    ctx.access.requireCaller();
    const email = emailAddress(input.email);
    const name = required(input.name, 'name');
    const uniqueId = optional(input.uniqueId, 'uniqueId');
    const given = optional(input.distributorId, 'distributorId');
    const own = ctx.access.ownDistributorId ? ctx.access.shownId(ctx.access.ownDistributorId, 'distributor') : undefined;
    const partnerId = given ?? own;
    if (!partnerId) throw badRequest('distributorId is required');
    const distributorId = ctx.access.recordId(partnerId, 'distributor');
    const distributor = distributorId ? await this.distributors.findVisible(ctx, distributorId) : null;
    if (!distributor) throw distributorNotFoundNamed(partnerId);
    const investor = ctx.em.create(Investor, {
      id: await nextId(ctx.em, 'IN'),
      distributor,
      externalInvestorId: uniqueId,
      email,
      name: name.trim(),
      status: 'active',
    });
    await ctx.em.flush();
    return investor;
  }
}

export interface RegisterUserInput {
  email?: string | null;
  name?: string | null;
  distributorId?: string | null;
  uniqueId?: string | null;
}
