import { AuthResolver } from './auth.resolver';
import { OpsPrincipal } from './ops-principal.entity';
import { OpsToken } from './ops-token.entity';
import { OpsConsoleSession } from './console-session.entity';
import { ApiCredential, RefreshToken, TokenFamily } from './api-credential.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest } from '../../access/module-manifest';
import type { OpsTokenService } from './ops-token.service';
import type { ConsoleSessionService } from './console-session.service';
import type { ApiCredentialService } from './api-credential.service';
import type { AccessTokenService } from './access-token.service';

// What other modules use of auth: they import it from here, never from its files.
export { ApiCredential } from './api-credential.entity';
export { invalidCredentials } from './auth.errors';
export { newFirstPart } from './ops-token-secret';
export { OpsTokenService, opsRoles } from './ops-token.service';
export { ConsoleSessionService } from './console-session.service';

/** The services the auth module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    auth: {
      opsToken: OpsTokenService;
      consoleSession: ConsoleSessionService;
      apiCredential: ApiCredentialService;
      accessToken: AccessTokenService;
    };
  }
}

/** The auth module's manifest, collected by src/modules/manifests.ts. */
export const authModule: ModuleManifest<'auth'> = {
  name: 'auth',
  services: { opsToken: true, consoleSession: true, apiCredential: true, accessToken: true },
  resolvers: [AuthResolver],
  entities: [OpsPrincipal, OpsToken, OpsConsoleSession, ApiCredential, TokenFamily, RefreshToken],
  mutationRoles: {
    // Credentials of distributors, and ops tokens.
    issueApiCredential: 'operator',
    rotateApiCredential: 'operator',
    revokeApiCredential: 'operator',
    /** Each principal rotates its own token. */
    rotateOpsToken: 'viewer',
    /** A new `viewer` principal only; every other role is asked for (requestOpsPrincipal). */
    issueOpsToken: 'admin',
    /** Ending credentials stays immediate: one admin, no approval. */
    revokeOpsToken: 'admin',
    /** Surface O's token endpoints: public, an ops caller gains nothing there. */
    issueAccessToken: 'viewer',
    refreshAccessToken: 'viewer',
  },
  queryRoles: {},
  mutationDuties: {
    issueApiCredential: nothing,
    rotateApiCredential: nothing,
    revokeApiCredential: nothing,
    rotateOpsToken: nothing,
    issueOpsToken: nothing,
    revokeOpsToken: nothing,
    issueAccessToken: nothing,
    refreshAccessToken: nothing,
  },
  visibility: {
    TokenPairResult: 'open',
    ApiCredentialView: 'ops',
    IssuedApiCredential: 'ops',
    IssuedOpsToken: 'ops',
    OpsPrincipal: 'ops',
    OpsDuty: 'ops',
    OpsDutyStep: 'ops',
    /** The caller itself. */
    Me: 'open',
  },
};
