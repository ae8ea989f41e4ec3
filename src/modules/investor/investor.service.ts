import { nextId } from '../../common/ids';
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
}
