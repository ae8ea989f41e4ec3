import { createHash, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { assertInGoodStanding } from '../../access/access';
import type { Clock } from '../../common/clock';
import { Distributor } from '../distributor';
import type { Principal } from '../../access/principal';
import type { RateLimits } from '../../access/rate-limit';
import type { DomainError } from '../../common/errors';
import { required } from '../../common/validate';
import type { JwtConfig } from '../../config';
import { ApiCredential, RefreshToken, TokenFamily } from './api-credential.entity';
import {
  ACCESS_TOKEN_REFUSAL,
  expiredRefreshToken,
  invalidCredentials,
  invalidRefreshToken,
  missingCredentials,
  reusedRefreshToken,
  revokedRefreshToken,
} from './auth.errors';
import { burnVerification, verifySecret } from './secret-hash';

/** Access tokens live 15 minutes (`expiresIn` 900). */
export const ACCESS_TOKEN_TTL_SECONDS = 900;

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

export type AccessCheck = { principal: Extract<Principal, { kind: 'distributor' }> } | { principal: null; reason: string };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Surface-O authentication. `POST /auth/token` trades a key and secret for a signed access token
 * (HS256 JWT, 15 minutes by the injected clock) and an opaque refresh token. Refreshing rotates
 * the refresh token; presenting a used one again revokes its whole family (a stolen token is
 * then useless to both parties). Access tokens name their credential and family, which are
 * checked on every request, so revocation and rotation take effect at once.
 */
export class AccessTokenService {
  private readonly key: Uint8Array;

  constructor(
    private readonly clock: Clock,
    private readonly config: JwtConfig,
    private readonly limits: RateLimits,
  ) {
    this.key = new TextEncoder().encode(config.signingKey);
  }

  async issue(em: EntityManager, apiKey: unknown, apiSecret: unknown): Promise<TokenPair> {
    if (typeof apiKey !== 'string' || typeof apiSecret !== 'string' || !apiKey.trim() || !apiSecret.trim()) throw missingCredentials();
    await this.limits.tokenAttempt(apiKey);
    const credential = await em.findOne(ApiCredential, { apiKey, revokedAt: null });
    if (!credential) {
      await burnVerification(apiSecret);
      throw invalidCredentials();
    }
    if (!(await verifySecret(apiSecret, credential.secretHash))) throw invalidCredentials();
    // A suspended or closed distributor gets no token to hold until it is refused elsewhere.
    assertInGoodStanding((await em.findOneOrFail(Distributor, credential.distributor.id, { fields: ['status'] })).status);
    const now = this.clock.now();
    const family = em.create(TokenFamily, { id: `fam_${randomBytes(12).toString('hex')}`, credential, createdAt: now });
    const refreshToken = this.newRefreshToken(em, family, now);
    await em.flush();
    return this.pair(await this.sign(credential.distributor.id, credential.id, family.id, now), refreshToken);
  }

  /** Rotates a refresh token. A used, revoked or expired one is refused (401). */
  async refresh(em: EntityManager, refreshToken: unknown): Promise<TokenPair> {
    const token = required(refreshToken, 'refreshToken');
    await this.limits.tokenAttempt(token);
    const now = this.clock.now();
    // The family revocation of a reuse must commit even though the request is refused.
    const outcome = await em.transactional(async (tem): Promise<{ refused: DomainError } | { pair: TokenPair }> => {
      const row = await tem.findOne(RefreshToken, { tokenHash: sha256(token) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return { refused: invalidRefreshToken() };
      const family = await tem.findOneOrFail(TokenFamily, { id: row.family.id }, { populate: ['credential'] });
      if (family.revokedAt || family.credential.revokedAt) return { refused: revokedRefreshToken() };
      if (row.usedAt) {
        family.revokedAt = now;
        family.revokedReason = 'refresh token reuse';
        return { refused: reusedRefreshToken() };
      }
      if (row.expiresAt.getTime() <= now.getTime()) return { refused: expiredRefreshToken() };
      assertInGoodStanding((await tem.findOneOrFail(Distributor, family.credential.distributor.id, { fields: ['status'] })).status);
      row.usedAt = now;
      const next = this.newRefreshToken(tem, family, now);
      const access = await this.sign(family.credential.distributor.id, family.credential.id, family.id, now);
      return { pair: this.pair(access, next) };
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.pair;
  }

  /** The distributor an access token speaks for, or why it is refused. */
  async check(em: EntityManager, token: string): Promise<AccessCheck> {
    if (!token) return { principal: null, reason: ACCESS_TOKEN_REFUSAL.missing };
    let claims: { sub?: string; cid?: unknown; fam?: unknown };
    try {
      ({ payload: claims } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.config.issuer,
        audience: this.config.issuer,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (err) {
      return { principal: null, reason: err instanceof joseErrors.JWTExpired ? ACCESS_TOKEN_REFUSAL.expired : ACCESS_TOKEN_REFUSAL.invalid };
    }
    if (typeof claims.cid !== 'string' || typeof claims.fam !== 'string' || typeof claims.sub !== 'string') {
      return { principal: null, reason: ACCESS_TOKEN_REFUSAL.invalid };
    }
    // The family and credential are live, and the credential still belongs to the token's distributor.
    const family = await em.findOne(TokenFamily, { id: claims.fam, revokedAt: null, credential: { id: claims.cid, revokedAt: null, distributor: claims.sub } });
    if (!family) return { principal: null, reason: ACCESS_TOKEN_REFUSAL.revoked };
    return { principal: { kind: 'distributor', distributorId: claims.sub, surface: 'O' } };
  }

  /** The principal of a valid access token, or null (GraphQL and the REST facade call this). */
  async authenticate(em: EntityManager, token: string): Promise<Principal | null> {
    return (await this.check(em, token)).principal;
  }

  private newRefreshToken(em: EntityManager, family: TokenFamily, now: Date): string {
    const token = `rt_${randomBytes(32).toString('base64url')}`;
    em.create(RefreshToken, {
      tokenHash: sha256(token),
      family,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + this.config.refreshTokenTtlSeconds * 1000),
    });
    return token;
  }

  private sign(distributorId: string, credentialId: string, familyId: string, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ cid: String(credentialId), fam: familyId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(distributorId)
      .setIssuer(this.config.issuer)
      .setAudience(this.config.issuer)
      .setJti(randomBytes(12).toString('hex'))
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  private pair(accessToken: string, refreshToken: string): TokenPair {
    return { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS };
  }
}
