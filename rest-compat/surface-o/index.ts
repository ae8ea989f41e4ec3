import type { RestRoute } from '../route';
import { authRoutes } from './auth.routes';
import { holdingRoutes } from './holding.routes';
import { orderRoutes } from './orders.routes';
import { assetRoutes } from './share-class.routes';
import { userRoutes } from './user.routes';
import { webhookRoutesO } from './webhook.routes';
import { eventFeedRoutes } from '../surface-r/event.routes';

/** Surface O, as spec/api-description.md describes it (Bearer-authenticated distributors). */
export const SURFACE_O: RestRoute[] = [
  ...authRoutes,
  ...assetRoutes,
  ...userRoutes,
  ...orderRoutes,
  ...holdingRoutes,
  ...webhookRoutesO,
  ...eventFeedRoutes('bearer'),
];
