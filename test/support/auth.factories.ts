import { Access } from '../../src/access/access';
import { runInScope } from '../../src/common/request-scope';
import type { Distributor } from '../../src/modules/distributor/distributor.entity';
import type { TestGateway } from './gateway';

const OPS = Access.ops('factory');

/** A surface-O key and secret issued to `distributor` (as ops would at onboarding). */
export async function aCredential(gw: TestGateway, distributor: Distributor) {
  return runInScope({ actor: 'factory' }, () => gw.gateway.services.apiCredential.issue({ em: gw.em(), access: OPS }, distributor.id));
}

/** A fresh token pair for `distributor`, obtained through `POST /auth/token`. */
export async function aTokenPair(
  gw: TestGateway,
  distributor: Distributor,
): Promise<{ accessToken: string; refreshToken: string; apiKey: string; apiSecret: string }> {
  const { apiKey, apiSecret } = await aCredential(gw, distributor);
  const res = await gw.api('POST', '/auth/token', { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
  if (res.status !== 200) throw new Error(`token request failed: ${res.text}`);
  return { ...res.body.data, apiKey, apiSecret };
}

/** `Authorization: Bearer …` headers of a fresh access token for `distributor`. */
export async function bearerOf(gw: TestGateway, distributor: Distributor): Promise<Record<string, string>> {
  const { accessToken } = await aTokenPair(gw, distributor);
  return { authorization: `Bearer ${accessToken}` };
}
