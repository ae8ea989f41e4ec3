import { oneStepOrderRoutes } from '../surface-r/order-one-step.routes';

/** Surface O orders: R's one-step rows and record, with `PT`/`US` ids, behind a bearer token. */
export const orderRoutes = oneStepOrderRoutes('bearer');
