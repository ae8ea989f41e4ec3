import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

export enum IdempotencyState {
  /** The first request with the key is still running; others with the key answer 409. */
  running = 'running',
  /** Its response is kept and replayed to the same request with the same key. */
  done = 'done',
}

/**
 * An `Idempotency-Key` a distributor sent with a POST, kept 24 hours: the fingerprint of the
 * request it came with and, once answered, that answer. Keys of different distributors never
 * meet (the key is part of a primary key that starts with the distributor).
 */
@Entity({ tableName: 'idempotency_key' })
export class IdempotencyKey {
  @PrimaryKey({ type: 'text' })
  distributorId: string;

  @PrimaryKey({ type: 'text' })
  key: string;

  /** sha256 of method, path and canonical body (rest-compat/idempotency.ts). */
  @Property({ type: 'text' })
  fingerprint: string;

  @Property({ type: 'text' })
  state: Opt<IdempotencyState> = IdempotencyState.running;

  @Property({ type: 'int', nullable: true })
  responseStatus?: number;

  /** The answer's body as the bytes first sent (not jsonb, which reorders keys): a replay sends them again. */
  @Property({ type: 'text', nullable: true })
  responseBody?: string;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  /** Past this, the key is forgotten (and deleted by the next clean-up). */
  @Index()
  @Property({ type: 'datetime', length: 3 })
  expiresAt: Date;
}
