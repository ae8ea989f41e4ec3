import { Entity, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';
import { OpsToken } from './ops-token.entity';

/**
 * A console session: the ops token it was exchanged for once (console-session.service.ts), held by
 * the browser as an HttpOnly cookie. Only the cookie's hash is stored. It lives until it expires,
 * is ended (signing out), or its token is revoked or expires, whichever comes first.
 */
@Entity({ tableName: 'ops_console_session' })
export class OpsConsoleSession {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => OpsToken, { deleteRule: 'cascade', index: true })
  token: OpsToken;

  @Property({ type: 'text', unique: true })
  secretHash: string;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Property({ type: 'datetime', length: 3 })
  expiresAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  endedAt?: Date;
}
