import type { RestRoute } from '../route';
import { webhookRoutesO } from './webhook.routes';

/** Surface O, as spec/api-description.md describes it (Bearer-authenticated distributors). */
export const SURFACE_O: RestRoute[] = [...webhookRoutesO];
