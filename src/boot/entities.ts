import { DomainEvent } from '../events/event.entity';
import { MODULE_PARTS } from '../modules/manifests';

/** Every entity of the domain model, each module's (its manifest) and the event log's; the ORM and the migration generator read this list. */
export const ENTITIES = [...MODULE_PARTS.entities, DomainEvent];
