import { IssueAccessTokenDocument, RefreshAccessTokenDocument } from '../generated/graphql';
import { route, type RestRequest } from '../route';
import { obj, str, tokenPair } from '../openapi/schemas';

const header = (req: RestRequest, name: string) => {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
};

/** The two surface-O endpoints that take no bearer token: their operations check what they are given. */
export const authRoutes = [
  route({
    method: 'POST',
    path: '/auth/token',
    auth: 'none',
    doc: {
      summary: 'Access and refresh tokens for an api key and secret (headers x-api-key, x-api-secret)',
      security: [{ apiKey: [], apiSecret: [] }],
      data: tokenPair,
      errors: {
        401: ['x-api-key and x-api-secret headers are required', 'invalid api key or secret'],
        403: ['distributor is <status>'],
        429: ['too many attempts, retry later'],
      },
    },
    document: IssueAccessTokenDocument,
    variables: (req) => ({ apiKey: header(req, 'x-api-key'), apiSecret: header(req, 'x-api-secret') }),
    data: (r) => r.issueAccessToken,
  }),
  route({
    method: 'POST',
    path: '/auth/refresh',
    auth: 'none',
    doc: {
      summary: 'A new token pair for a refresh token (each works once)',
      body: obj({ refreshToken: str() }),
      data: tokenPair,
      errors: {
        400: ['refreshToken is required'],
        401: ['invalid refresh token', 'refresh token expired', 'refresh token revoked', 'refresh token already used; its token family is revoked'],
        403: ['distributor is <status>'],
        429: ['too many attempts, retry later'],
      },
    },
    document: RefreshAccessTokenDocument,
    variables: (req) => ({ refreshToken: req.body.refreshToken }),
    data: (r) => r.refreshAccessToken,
  }),
];
