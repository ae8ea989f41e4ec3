import type { RestRoute } from '../route';

/** Surface O, as spec/api-description.md describes it (Bearer-authenticated distributors). */
export const SURFACE_O: RestRoute[] = [];
