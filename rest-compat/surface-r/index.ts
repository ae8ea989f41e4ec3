import type { RestRoute } from '../route';
import { healthRoutes } from './health.routes';
import { investorRoutes } from './investor.routes';
import { shareClassRoutes } from './share-class.routes';
import { orderOneStepRoutes } from './order-one-step.routes';
import { orderTwoStepRoutes } from './order-two-step.routes';
import { webhookRoutes } from './webhook.routes';
import { eventFeedRoutes } from './event.routes';

/** Surface R, as spec/api-description.md describes it. Within a path, earlier rows win. */
export const SURFACE_R: RestRoute[] = [
  ...healthRoutes,
  ...investorRoutes,
  ...shareClassRoutes('/funds/shareclass', 'host'),
  ...orderTwoStepRoutes,
  ...orderOneStepRoutes,
  ...webhookRoutes,
  ...eventFeedRoutes('host'),
];
