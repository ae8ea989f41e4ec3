import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from './principal';

/** What a service method needs from the request: its unit of work and who is asking. */
export interface ServiceContext {
  em: EntityManager;
  principal: Principal;
}
