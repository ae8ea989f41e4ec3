import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../common/principal';

/**
 * Surface O access tokens. Until partner credentials exist (surface O issue), no token is valid.
 */
export class AccessTokenService {
  async authenticate(_em: EntityManager, _token: string): Promise<Principal | null> {
    return null;
  }
}
