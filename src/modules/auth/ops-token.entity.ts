import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';

/** A bearer token of the internal ops console, valid until it expires or is revoked. Only its SHA-256 is stored. */
@Entity({ tableName: 'ops_token' })
export class OpsToken {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', unique: true })
  tokenHash: string;

  /** What its holder may do (src/access/ops-roles.ts); at least one. */
  @Property({ type: 'text[]' })
  roles: string[];

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  /** Past this the token is refused like a wrong one (OPS_TOKEN_TTL_SECONDS after issue). */
  @Property({ type: 'datetime', length: 3 })
  expiresAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  revokedAt?: Date;
}
