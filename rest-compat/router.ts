import express, { type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import { unauthenticated } from '../src/common/errors';
import type { Principal } from '../src/access/principal';
import { currentScope, runInDoorScope } from '../src/common/request-scope';
import { contextOver, createContext } from '../src/access/graphql-context';
import type { ContextServices as Services } from '../src/access/graphql-context';
import { hostNotProvisioned } from '../src/modules/distributor/distributor.errors';
import { bindingRefusal, clientCertificateSha256, requestHost } from '../src/modules/distributor/host-binding';
import { failure, type Envelope } from './envelope';
import { fromError, runRoute, validateRoutes } from './executor';
import { requestInputProblem, requireJsonBody } from './input-guard';
import { idempotent, REPLAYED_HEADER } from './idempotency';
import type { RestRequest, RestRoute } from './route';

interface CompiledRoute {
  route: RestRoute;
  pattern: RegExp;
  keys: string[];
}

function compile(route: RestRoute): CompiledRoute {
  const keys: string[] = [];
  const source = route.path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? (keys.push(seg.slice(1)), '([^/]+)') : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { route, pattern: new RegExp(`^${source}/?$`), keys };
}

function match(table: CompiledRoute[], method: string, path: string, req: Omit<RestRequest, 'params'>) {
  for (const c of table) {
    if (c.route.method !== method) continue;
    const m = c.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    c.keys.forEach((k, i) => {
      try {
        params[k] = decodeURIComponent(m[i + 1]);
      } catch {
        params[k] = m[i + 1];
      }
    });
    const restReq = { ...req, params };
    if (c.route.when && !c.route.when(restReq)) continue;
    return { route: c.route, req: restReq };
  }
  return null;
}

/** Surface R's writes default their actor to `Network`, surface O's to `system` (the description). */
const DEFAULT_ACTOR: Record<'host' | 'bearer' | 'none', string> = { host: 'Network', bearer: 'system', none: 'system' };

export interface RestRouterDeps {
  schema: GraphQLSchema;
  orm: MikroORM;
  services: Services;
  surfaceR: RestRoute[];
  surfaceO: RestRoute[];
  bodyLimit: string;
  /** Refuse surface-R requests on unbound hosts (Config.hostBindingRequired). */
  hostBindingRequired: boolean;
}

/**
 * The `/api/v1` facade. Both surfaces share the prefix and some of their paths, and a client
 * written against either description must work unchanged, so the request itself says which it
 * is: a request with `Authorization: Bearer` is surface O; without it, surface R,
 * falling back to surface O's own paths (its token endpoints, and its other paths, which then
 * answer 401 for want of a token).
 */
export function restRouter(deps: RestRouterDeps): express.Router {
  validateRoutes(deps.schema, [...deps.surfaceR, ...deps.surfaceO]);
  const tableR = deps.surfaceR.map(compile);
  const tableO = deps.surfaceO.map(compile);
  const router = express.Router();

  router.use(requireJsonBody);
  router.use(express.json({ limit: deps.bodyLimit, type: () => true }));
  router.use((err: { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (err?.type === 'entity.too.large') return sendEnvelope(res, 413, failure('request body too large'));
    if (err?.type === 'entity.parse.failed' || err?.status === 400) return sendEnvelope(res, 400, failure('malformed JSON body'));
    if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') return sendEnvelope(res, 400, failure('unsupported body encoding'));
    return next(err);
  });

  router.use(async (req: Request, res: Response) => {
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      sendEnvelope(res, 400, failure('request body must be a JSON object'));
      return;
    }
    const credentialParam = Object.keys(req.query ?? {}).find((k) => CREDENTIAL_PARAMS.has(k.toLowerCase().replace(/[-_]/g, '')));
    if (credentialParam !== undefined) {
      sendEnvelope(res, 400, failure(`credentials must not be sent in URL parameters (${credentialParam})`));
      return;
    }
    const bearer = bearerToken(req);
    const base = { query: req.query as Record<string, unknown>, body: body as Record<string, unknown>, headers: req.headers };
    const found =
      bearer !== null ? match(tableO, req.method, req.path, base) : (match(tableR, req.method, req.path, base) ?? match(tableO, req.method, req.path, base));
    if (!found) {
      sendEnvelope(res, 404, failure(`no route ${req.method} ${req.path}`));
      return;
    }
    res.locals.route = `${found.route.method} ${found.route.path}`; // the metrics' label (src/ops/metrics.ts)
    const actorHeader = req.get('x-actor')?.trim();
    const problem = requestInputProblem(found.req, actorHeader);
    if (problem) {
      sendEnvelope(res, 400, failure(problem));
      return;
    }
    const actor = actorHeader || found.route.defaultActor || DEFAULT_ACTOR[found.route.auth];
    await runInDoorScope({ requestId: req.get('x-request-id') || undefined, actor, principal: 'anonymous' }, async () => {
      const em = deps.orm.em.fork();
      try {
        const principal = await resolvePrincipal(deps, em, found.route, req, bearer);
        const ctx = await createContext({ em, principal, services: deps.services, requestId: currentScope()?.requestId ?? '' });
        const outcome = await idempotent(
          deps.services.idempotency,
          em,
          req,
          ctx.access,
          (runEm) => runRoute(deps.schema, found.route, found.req, runEm === em ? ctx : contextOver(ctx, runEm)),
          {
            atomic: !found.route.callsOut,
          },
        );
        if (outcome.replayed) res.set(REPLAYED_HEADER, 'true');
        sendJson(res, outcome.status, outcome.json, outcome.headers);
      } catch (err) {
        const outcome = fromError(err);
        sendEnvelope(res, outcome.status, outcome.body, outcome.headers);
      }
    });
  });
  return router;
}

/**
 * The envelope as `res.json` writes it (same bytes and content type), without its ETag hash of
 * every body and the freshness check that goes with it: API answers are not revalidated by
 * clients (the description has no conditional requests), and the hash showed in an order read's
 * CPU (docs/benchmarks.md, "Measured costs behind code choices").
 */
function sendEnvelope(res: Response, status: number, body: Envelope, headers?: Record<string, string>): void {
  sendJson(res, status, JSON.stringify(body), headers);
}

/** An envelope already written as JSON text (a kept idempotent answer is replayed as these bytes). */
function sendJson(res: Response, status: number, json: string, headers?: Record<string, string>): void {
  if (headers) res.set(headers);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/**
 * Query parameters that carry credentials (normalized: lower case, no `-`/`_`). The description
 * forbids credentials in URLs (they end up in logs and proxies): such a request is refused
 * before anything else, even when it also carries valid headers.
 */
const CREDENTIAL_PARAMS = new Set([
  'accesstoken',
  'token',
  'bearer',
  'authorization',
  'apikey',
  'xapikey',
  'apisecret',
  'xapisecret',
  'secret',
  'refreshtoken',
  'jwt',
]);

function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : header.toLowerCase().startsWith('bearer') ? '' : null;
}

async function resolvePrincipal(
  deps: RestRouterDeps,
  em: ReturnType<MikroORM['em']['fork']>,
  route: RestRoute,
  req: Request,
  bearer: string | null,
): Promise<Principal> {
  switch (route.auth) {
    case 'none':
      return { kind: 'anonymous' };
    case 'host': {
      // The Host header alone names the tenant: X-Forwarded-Host is a header any client types.
      const host = requestHost(req.headers);
      const mapping = await deps.services.distributor.resolveHost({ em }, host);
      if (!mapping) throw hostNotProvisioned(host);
      const refusal = bindingRefusal(host, mapping, { address: req.ip, certSha256: clientCertificateSha256(req.socket) }, deps.hostBindingRequired);
      if (refusal) throw refusal;
      return { kind: 'distributor', distributorId: mapping.distributorId, surface: 'R' };
    }
    case 'bearer': {
      if (bearer === null) throw unauthenticated('missing bearer token');
      const checked = await deps.services.accessToken.check(em, bearer);
      if (!checked.principal) throw unauthenticated(checked.reason);
      return checked.principal;
    }
  }
}
