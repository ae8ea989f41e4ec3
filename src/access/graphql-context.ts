import type { EntityManager } from '@mikro-orm/postgresql';
import { accessFor, type Access } from './access';
import { principalLabel, type Principal } from './principal';
import { authenticatedAs } from '../common/request-scope';
import { Loaders } from '../persistence/loaders';

/**
 * The services a resolver calls. This layer sits below the modules and names none of them: the
 * composition root fills the slot in (src/context-services.ts, declaration merging), so the type
 * is the wired `Services` while no import runs up from here.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an empty slot filled in by declaration merging at the top
export interface ContextServices {}

/**
 * What every resolver receives but the services. One EntityManager fork per request (MikroORM refuses the
 * global one), the caller's Access (what it may see and do), and the per-request batch loaders.
 */
export interface RequestContext {
  em: EntityManager;
  access: Access;
  loaders: Loaders;
  requestId: string;
}

/**
 * The request context with every service: the transports' and the composition root's. A module's
 * resolvers receive `ModuleContext<'m'>` (module-services.ts), whose services are only those
 * the module may call.
 */
export interface GatewayContext extends RequestContext {
  services: ContextServices;
}

/** The context of one request (or one subscription event): admits the principal first (accessFor). */
export async function createContext(args: { em: EntityManager; principal: Principal; services: ContextServices; requestId: string }): Promise<GatewayContext> {
  const access = await accessFor(args.em, args.principal, args.services.distributor);
  // Every write of this request records the principal that authenticated, whatever `x-actor` says.
  authenticatedAs(principalLabel(access.principal));
  return { em: args.em, access, services: args.services, loaders: new Loaders(args.em), requestId: args.requestId };
}

/** The same request's context over another EntityManager (a transaction the request runs in). */
export function contextOver(ctx: GatewayContext, em: EntityManager): GatewayContext {
  return { ...ctx, em, loaders: new Loaders(em) };
}
