import { randomBytes } from 'node:crypto';
import type { Clock } from '../../common/clock';
import { recordId, shownId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { required } from '../../common/validate';
import { Distributor, distributorNotFoundNamed } from '../distributor';
import { ApiCredential } from './api-credential.entity';
import { apiKeyNotFound } from './auth.errors';
import { hashSecret } from './secret-hash';

/** What ops hand to the distributor at onboarding; the secret is never shown again. */
export interface IssuedCredential {
  apiKey: string;
  apiSecret: string;
  distributorId: string;
  partnerId: string;
  createdAt: Date;
}

/**
 * Surface-O credentials: ops issue, rotate and revoke a distributor's key and secret.
 * Revoking (or rotating away) a credential ends every access and refresh token it produced,
 * because token checks read the credential's state.
 */
export class ApiCredentialService {
  constructor(private readonly clock: Clock) {}

  async issue(ctx: ServiceContext, distributorId: unknown): Promise<IssuedCredential> {
    ctx.access.requireOps();
    const raw = required(distributorId, 'distributorId');
    const id = recordId(raw, 'distributor', null);
    const distributor = id ? await ctx.em.findOne(Distributor, { id }) : null;
    if (!distributor) throw distributorNotFoundNamed(raw);
    return this.create(ctx, distributor);
  }

  /** A new key and secret for the same distributor; the old pair and its tokens stop working. */
  async rotate(ctx: ServiceContext, apiKey: unknown): Promise<IssuedCredential> {
    ctx.access.requireOps();
    const key = required(apiKey, 'apiKey');
    return ctx.em.transactional(async (em) => {
      const current = await em.findOne(ApiCredential, { apiKey: key, revokedAt: null }, { populate: ['distributor'] });
      if (!current) throw apiKeyNotFound();
      current.revokedAt = this.clock.now();
      return this.create({ ...ctx, em }, current.distributor);
    });
  }

  async revoke(ctx: ServiceContext, apiKey: unknown): Promise<boolean> {
    ctx.access.requireOps();
    const key = required(apiKey, 'apiKey');
    const current = await ctx.em.findOne(ApiCredential, { apiKey: key, revokedAt: null });
    if (!current) throw apiKeyNotFound();
    current.revokedAt = this.clock.now();
    await ctx.em.flush();
    return true;
  }

  /** The distributor's credentials, newest first (keys only, never secrets). */
  async list(ctx: ServiceContext, distributorId: unknown): Promise<ApiCredential[]> {
    ctx.access.requireOps();
    const raw = required(distributorId, 'distributorId');
    const id = recordId(raw, 'distributor', null);
    return id ? ctx.em.find(ApiCredential, { distributor: id }, { orderBy: { createdAt: 'desc', id: 'desc' } }) : [];
  }

  private async create(ctx: ServiceContext, distributor: Distributor): Promise<IssuedCredential> {
    const apiKey = `pk_${randomBytes(16).toString('hex')}`;
    const apiSecret = `sk_${randomBytes(32).toString('base64url')}`;
    const credential = ctx.em.create(ApiCredential, { distributor, apiKey, secretHash: await hashSecret(apiSecret) });
    await ctx.em.flush();
    return { apiKey, apiSecret, distributorId: distributor.id, partnerId: shownId(distributor.id, 'distributor', 'O'), createdAt: credential.createdAt };
  }
}
