import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A bearer token of the internal ops console. Only its SHA-256 is stored. */
@Entity({ tableName: 'ops_token' })
export class OpsToken {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id: Opt<string>;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', unique: true })
  tokenHash: string;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  revokedAt?: Date;
}
