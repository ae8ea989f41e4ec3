import type { Clock } from './common/clock';
import { HealthService } from './modules/health/health.service';
import { AccessTokenService } from './modules/auth/access-token.service';
import { OpsTokenService } from './modules/auth/ops-token.service';
import { DistributorService } from './modules/distributor/distributor.service';
import { InvestorService } from './modules/investor/investor.service';
import { NavService } from './modules/nav/nav.service';
import { OrderService } from './modules/order/order.service';
import { ShareClassService } from './modules/share-class/share-class.service';
import { IssuerService } from './modules/issuer/issuer.service';
import { FundService } from './modules/fund/fund.service';
import { TokenService } from './modules/token/token.service';
import { InvestorWalletService } from './modules/investor/investor-wallet.service';
import { developmentJwtConfig, type JwtConfig } from './config';
import { ApiCredentialService } from './modules/auth/api-credential.service';
import { HoldingService } from './modules/holding/holding.service';
import { OneStepOrderService } from './modules/order/one-step.service';

/** One instance of each service per process; they hold no request state. */
export function createServices(deps: { clock: Clock; env: string; jwt?: JwtConfig }) {
  const shareClass = new ShareClassService();
  const distributor = new DistributorService();
  const investor = new InvestorService(distributor);
  return {
    clock: deps.clock,
    health: new HealthService(deps.clock, deps.env),
    opsToken: new OpsTokenService(deps.clock),
    accessToken: new AccessTokenService(deps.clock, deps.jwt ?? developmentJwtConfig(deps.env)),
    shareClass,
    nav: new NavService(shareClass, deps.clock),
    distributor,
    investor,
    order: new OrderService(),
    ...opsServices(deps, investor),
    apiCredential: new ApiCredentialService(deps.clock),
    holding: new HoldingService(shareClass),
    oneStepOrder: new OneStepOrderService(deps.clock, new NavService(shareClass, deps.clock)),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Ops provisioning services (issue 2). */
function opsServices(deps: { clock: Clock }, investor: InvestorService) {
  const issuer = new IssuerService();
  return {
    issuer,
    fund: new FundService(issuer),
    token: new TokenService(),
    investorWallet: new InvestorWalletService(investor, deps.clock),
  };
}
