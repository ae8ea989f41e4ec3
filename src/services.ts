import type { Clock } from './common/clock';
import { HealthService } from './modules/health/health.service';
import { AccessTokenService } from './modules/auth/access-token.service';
import { OpsTokenService } from './modules/auth/ops-token.service';
import { DistributorService } from './modules/distributor/distributor.service';
import { InvestorService } from './modules/investor/investor.service';
import { NavService } from './modules/nav/nav.service';
import { OrderService } from './modules/order/order.service';
import { ShareClassService } from './modules/share-class/share-class.service';
import type { EventBus } from './events/pubsub';
import { WebhookService, type WebhookServiceDeps } from './modules/webhook/webhook.service';

/** One instance of each service per process; they hold no request state. */
export function createServices(deps: { clock: Clock; env: string; eventBus: EventBus; webhooks: Omit<WebhookServiceDeps, 'clock'> }) {
  const shareClass = new ShareClassService();
  const distributor = new DistributorService();
  return {
    clock: deps.clock,
    health: new HealthService(deps.clock, deps.env),
    opsToken: new OpsTokenService(deps.clock),
    accessToken: new AccessTokenService(),
    shareClass,
    nav: new NavService(shareClass, deps.clock),
    distributor,
    investor: new InvestorService(distributor),
    order: new OrderService(),
    eventBus: deps.eventBus,
    webhook: new WebhookService({ clock: deps.clock, ...deps.webhooks }),
  };
}

export type Services = ReturnType<typeof createServices>;
