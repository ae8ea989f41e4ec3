import { TokenResolver } from './token.resolver';
import { ShareClassTokensResolver } from './share-class-tokens.resolver';
import { Token } from './token.entity';
import { ends, nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { TokenService } from './token.service';

// What other modules use of token: they import it from here, never from its files.
export { Token } from './token.entity';
export { findPrimaryToken } from './token.service';

/** The services the token module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    token: {
      token: TokenService;
    };
  }
}

/** The token module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const tokenModule: ModuleManifest<'token'> = {
  name: 'token',
  services: { token: true },
  resolvers: [TokenResolver, ShareClassTokensResolver],
  entities: [Token],
  mutationRoles: {
    deployToken: 'operator',
    createToken: 'operator',
    updateToken: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    deployToken: ends('tokenDeployment'),
    createToken: nothing,
    updateToken: nothing,
  },
  visibility: {
    Token: { shareClass: (t) => ref(t.shareClass) },
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
