import { Entity, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';
import { OpsPrincipal } from './ops-principal.entity';

/**
 * A bearer token of the internal ops console, valid until it expires or is revoked. Only its hash
 * is stored (ops-token-secret.ts). It belongs to one principal, whose name and roles it carries.
 */
@Entity({ tableName: 'ops_token' })
export class OpsToken {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => OpsPrincipal)
  principal: OpsPrincipal;

  @Property({ type: 'text', unique: true })
  tokenHash: string;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  /** Past this the token is refused like a wrong one (OPS_TOKEN_TTL_SECONDS after issue). */
  @Property({ type: 'datetime', length: 3 })
  expiresAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  revokedAt?: Date;
}
