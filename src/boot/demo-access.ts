import { Access } from '../access/access';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiCredential } from '../modules/auth/api-credential.entity';
import { OpsPrincipal } from '../modules/auth/ops-principal.entity';
import type { IssuedCredential } from '../modules/auth/api-credential.service';
import type { Services } from '../services';
import { runInScope } from '../common/request-scope';
import { Distributor } from '../modules/distributor/distributor.entity';
import { Issuer } from '../modules/issuer/issuer.entity';
import { DEMO_ISSUER_LEI, DEMO_DISTRIBUTOR_NAME } from './seed';

/**
 * Whether the database holds nothing but what seedDemo and issueDemoAccess put there (or nothing
 * at all): the only database into which a start may hand out credentials. Anything provisioned
 * otherwise (another issuer or distributor, a token or key issued by a person) is real data.
 */
export async function holdsOnlyDemoData(em: EntityManager): Promise<boolean> {
  const [issuers, demoIssuers, ...others] = await Promise.all([
    em.count(Issuer, {}),
    em.count(Issuer, { lei: DEMO_ISSUER_LEI }),
    em.count(Distributor, { $or: [{ id: { $ne: DEMO_DISTRIBUTOR } }, { name: { $ne: DEMO_DISTRIBUTOR_NAME } }] }),
    em.count(OpsPrincipal, { name: { $nin: [DEMO_ACCESS, DEMO_APPROVER] } }),
    em.count(ApiCredential, { createdBy: { $ne: DEMO_ACCESS } }),
  ]);
  return issuers === demoIssuers && others.every((n) => n === 0);
}

/** The actor, and the ops principal, of what a development start hands out. */
export const DEMO_ACCESS = 'demo-console';
/** The development start's second ops principal: `approver` only (four eyes need two people). */
export const DEMO_APPROVER = 'demo-approver';
export const DEMO_DISTRIBUTOR = 'DT000001';

/**
 * A development start hands out fresh credentials for trying both doors at once: an ops token
 * for the console and, when the demo distributor exists, a surface-O key and secret for it.
 * The previous start's are revoked first, so only the latest printed ones work.
 */
export async function issueDemoAccess(
  em: EntityManager,
  services: Services,
): Promise<{ opsToken: string; approverToken: string; surfaceO: IssuedCredential | null }> {
  return runInScope({ actor: DEMO_ACCESS }, async () => {
    // Two principals, two people of the demo: the console's is `admin`; a second, `approver` only,
    // approves what the first requests. A development start holds the database, so it is
    // break-glass (OpsTokenService.bootstrap, like `npm run ops-token -- --rotate`): each principal
    // is created if missing, its roles set, the previous start's tokens revoked and a new one
    // issued (valid OPS_TOKEN_TTL_SECONDS). The principals of a database with anything else in it
    // are never touched here (holdsOnlyDemoData).
    const { token: opsToken } = await services.opsToken.bootstrap(em, DEMO_ACCESS, ['admin'], DEMO_ACCESS);
    const { token: approverToken } = await services.opsToken.bootstrap(em, DEMO_APPROVER, ['approver'], DEMO_ACCESS);
    if (!(await em.count(Distributor, { id: DEMO_DISTRIBUTOR }))) return { opsToken, approverToken, surfaceO: null };
    const ctx = { em, access: Access.ops(DEMO_ACCESS) };
    for (const old of await em.find(ApiCredential, { distributor: DEMO_DISTRIBUTOR, createdBy: DEMO_ACCESS, revokedAt: null })) {
      await services.apiCredential.revoke(ctx, old.apiKey);
    }
    return { opsToken, approverToken, surfaceO: await services.apiCredential.issue(ctx, DEMO_DISTRIBUTOR) };
  });
}
