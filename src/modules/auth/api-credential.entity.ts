import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Audited } from '../../persistence/audited.entity';
import { Distributor } from '../distributor';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * A surface-O key and secret issued to a distributor at onboarding. The key is public (it
 * names the credential); the secret is shown once and only its scrypt hash is kept.
 * No GraphQL type: nothing of it is ever served except through `ApiCredentialView`.
 */
@Entity({ tableName: 'api_credential' })
export class ApiCredential extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Index()
  @ManyToOne(() => Distributor, { deleteRule: 'cascade' })
  distributor: Distributor;

  @Property({ type: 'text', unique: true })
  apiKey: string;

  /** `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>` */
  @Property({ type: 'text' })
  secretHash: string;

  /** Revoked or rotated away: its tokens stop working at once. */
  @Property({ type: 'datetime', length: 3, nullable: true })
  revokedAt?: Date;
}

/**
 * A chain of refresh tokens born from one `POST /auth/token`. Access tokens name their family,
 * so revoking the family (refresh-token reuse) also ends the access tokens it issued.
 */
@Entity({ tableName: 'token_family' })
export class TokenFamily {
  @PrimaryKey({ type: 'text' })
  id: string;

  @Index()
  @ManyToOne(() => ApiCredential, { deleteRule: 'cascade' })
  credential: ApiCredential;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  revokedAt?: Date;

  @Property({ type: 'text', nullable: true })
  revokedReason?: string;
}

/** One refresh token; only its SHA-256 is stored. Used once: refreshing rotates it. */
@Entity({ tableName: 'refresh_token' })
export class RefreshToken {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Property({ type: 'text', unique: true })
  tokenHash: string;

  @Index()
  @ManyToOne(() => TokenFamily, { deleteRule: 'cascade' })
  family: TokenFamily;

  @Property({ type: 'datetime', length: 3 })
  issuedAt: Date;

  @Property({ type: 'datetime', length: 3 })
  expiresAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  usedAt?: Date;
}
