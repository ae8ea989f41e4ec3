import type { Clock } from './common/clock';
import { HealthService } from './modules/health/health.service';
import { AccessTokenService } from './modules/auth/access-token.service';
import { OpsTokenService } from './modules/auth/ops-token.service';
import { DistributorService } from './modules/distributor/distributor.service';
import { InvestorService } from './modules/investor/investor.service';
import { NavService } from './modules/nav/nav.service';
import { OrderService } from './modules/order/order.service';
import { ShareClassService } from './modules/share-class/share-class.service';
import { TwoStepService } from './modules/order/two-step.service';
import { SupplyRegistry } from './supply/http-provider';
import type { SupplyProvidersConfig } from './supply/provider';

/** One instance of each service per process; they hold no request state. */
export function createServices(deps: { clock: Clock; env: string; supply?: SupplyProvidersConfig }) {
  const shareClass = new ShareClassService();
  const distributor = new DistributorService();
  const base = {
    clock: deps.clock,
    health: new HealthService(deps.clock, deps.env),
    opsToken: new OpsTokenService(deps.clock),
    accessToken: new AccessTokenService(),
    shareClass,
    nav: new NavService(shareClass, deps.clock),
    distributor,
    investor: new InvestorService(distributor),
    order: new OrderService(),
    supply: new SupplyRegistry(deps.supply ?? {}),
  };
  return {
    ...base,
    // NavService and OrderService hold no state: the two-step flow is given the same instances.
    twoStep: new TwoStepService({ distributors: distributor, shareClasses: shareClass, navs: base.nav, orders: base.order, supply: base.supply, clock: deps.clock }),
  };
}

export type Services = ReturnType<typeof createServices>;
