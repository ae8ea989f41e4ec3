import { notFound, unauthenticated } from '../../common/errors';

/** Wrong key, wrong secret, revoked credential: one answer, so keys cannot be probed. */
export const invalidCredentials = () => unauthenticated('invalid api key or secret');
export const missingCredentials = () => unauthenticated('x-api-key and x-api-secret headers are required');
export const invalidRefreshToken = () => unauthenticated('invalid refresh token');
export const expiredRefreshToken = () => unauthenticated('refresh token expired');
export const revokedRefreshToken = () => unauthenticated('refresh token revoked');
export const reusedRefreshToken = () => unauthenticated('refresh token already used; its token family is revoked');
export const apiKeyNotFound = () => notFound('apiKey not found');

/** Why an access token was refused; the REST facade answers 401 with it. */
export const ACCESS_TOKEN_REFUSAL = {
  missing: 'missing bearer token',
  invalid: 'invalid access token',
  expired: 'access token expired',
  revoked: 'access token revoked',
} as const;
