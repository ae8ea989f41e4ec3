import type { EntityManager } from '@mikro-orm/postgresql';
import type { Access } from './access';

/** What a service method needs from the request: its unit of work and what the caller may see and do. */
export interface ServiceContext {
  em: EntityManager;
  access: Access;
}
