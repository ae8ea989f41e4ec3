import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../common/principal';
import type { Services } from '../services';
import { Loaders } from './loaders';

/**
 * What every resolver receives. One EntityManager fork per request (MikroORM refuses the
 * global one), one principal, and the per-request batch loaders.
 */
export interface GatewayContext {
  em: EntityManager;
  principal: Principal;
  services: Services;
  loaders: Loaders;
  requestId: string;
}

export function createContext(args: { em: EntityManager; principal: Principal; services: Services; requestId: string }): GatewayContext {
  return { ...args, loaders: new Loaders(args.em) };
}
