import { alias, hasIdFormat, nextId } from '../../common/ids';
import { badRequest } from '../../common/errors';
import { assertAuthenticated } from '../../common/principal';
import type { ServiceContext } from '../../common/service-context';
import { optional, required } from '../../common/validate';
import { distributorNotFoundNamed } from '../distributor/distributor.errors';
import type { DistributorService } from '../distributor/distributor.service';
import { Investor } from './investor.entity';

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
    assertAuthenticated(ctx.principal);
    const distributorId = required(input.distributorId, 'distributorId');
    const externalInvestorId = required(input.externalInvestorId, 'externalInvestorId');
    const email = optional(input.email, 'email');
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
    } as never);
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
    assertAuthenticated(ctx.principal);
    const email = required(input.email, 'email');
    if (!EMAIL.test(email.trim())) throw badRequest('email must be a valid email address');
    const name = required(input.name, 'name');
    const uniqueId = optional(input.uniqueId, 'uniqueId');
    const given = optional(input.distributorId, 'distributorId');
    const own = ctx.principal.kind === 'distributor' ? alias(ctx.principal.distributorId, 'PT') : undefined;
    const partnerId = given ?? own;
    if (!partnerId) throw badRequest('distributorId is required');
    const distributorId = hasIdFormat(partnerId, 'PT') ? alias(partnerId, 'DT') : ctx.principal.kind === 'ops' && hasIdFormat(partnerId, 'DT') ? partnerId : null;
    const distributor = distributorId ? await this.distributors.findVisible(ctx, distributorId) : null;
    if (!distributor) throw distributorNotFoundNamed(partnerId);
    const investor = ctx.em.create(Investor, {
      id: await nextId(ctx.em, 'IN'),
      distributor,
      externalInvestorId: uniqueId,
      email: email.trim(),
      name: name.trim(),
      status: 'active',
    } as never);
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

/** Deliberately loose: one @, no spaces, a dot in the domain. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
