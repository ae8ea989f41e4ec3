import type { EventArgs, EventSubscriber } from '@mikro-orm/core';
import { Audited, firstWrite } from './audited.entity';
import type { Clock } from '../common/clock';
import { currentActor, currentPrincipal } from '../common/request-scope';

/**
 * Stamps the audit fields on every write: `createdAt`/`createdBy` once, `updatedAt`/`updatedBy`
 * on every change. The actor is the request's (`x-actor` or its door's default), a note; the
 * `…ByPrincipal` columns beside it hold the principal that authenticated.
 */
export class AuditSubscriber implements EventSubscriber {
  constructor(private readonly clock: Clock) {}

  beforeCreate(args: EventArgs<unknown>): void {
    const entity = args.entity;
    if (!(entity instanceof Audited)) return;
    Object.assign(entity, firstWrite(entity.createdAt ?? this.clock.now(), entity.createdBy));
  }

  beforeUpdate(args: EventArgs<unknown>): void {
    const entity = args.entity;
    if (!(entity instanceof Audited)) return;
    entity.updatedAt = this.clock.now();
    entity.updatedBy = currentActor();
    entity.updatedByPrincipal = currentPrincipal();
  }
}
