import { IssueAccessTokenDocument, RefreshAccessTokenDocument } from '../generated/graphql';
import { route, type RestRequest } from '../route';

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
    document: IssueAccessTokenDocument,
    variables: (req) => ({ apiKey: header(req, 'x-api-key'), apiSecret: header(req, 'x-api-secret') }),
    data: (r) => r.issueAccessToken,
  }),
  route({
    method: 'POST',
    path: '/auth/refresh',
    auth: 'none',
    document: RefreshAccessTokenDocument,
    variables: (req) => ({ refreshToken: req.body.refreshToken as string | null }),
    data: (r) => r.refreshAccessToken,
  }),
];
