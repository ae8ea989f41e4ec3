import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import { unauthenticated } from '../src/common/errors';
import type { Principal } from '../src/access/principal';
import { currentScope, runInDoorScope } from '../src/common/request-scope';
import { contextOver, createContext } from '../src/access/graphql-context';
import type { ContextServices as Services } from '../src/access/graphql-context';
import { hostNotProvisioned } from '../src/modules/distributor/distributor.errors';
import { bindingRefusal, clientCertificateSha256, requestHost } from '../src/modules/distributor/host-binding';
import { failure } from './envelope';
import { fromError, runRoute, validateRoutes } from './executor';
import { bodyTypeProblem, requestInputProblem } from './input-guard';
import { IDEMPOTENCY_HEADER, idempotent, REPLAYED_HEADER } from './idempotency';
import { requestHeader } from './request-header';
import { sendEnvelope, sendJson } from './send';
import { nameRoute } from '../src/ops/metrics';
import { logger } from '../src/common/logger';
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

/** Where a request under the prefix goes, as its URL spells it (rest-compat/door.ts finds it). */
export interface RestTarget {
  /** The prefix as the URL spelled it (matched without regard to case, as express mounts). */
  baseUrl: string;
  /** The path under the prefix, `/` for the prefix itself. */
  path: string;
  /** The query string without its `?`, or null. */
  search: string | null;
}

/** The facade's handler: it answers every request it is given (a failure is an envelope) and never throws. */
export type RestHandler = (req: IncomingMessage, res: ServerResponse, target: RestTarget) => void;

/**
 * The `/api/v1` facade, on node's own request and response (rest-compat/door.ts says why not
 * express's). Both surfaces share the prefix and some of their paths, and a client written
 * against either description must work unchanged, so the request itself says which it is: a
 * request with `Authorization: Bearer` is surface O; without it, surface R, falling back to
 * surface O's own paths (its token endpoints, and its other paths, which then answer 401 for want
 * of a token).
 */
export function restRouter(deps: RestRouterDeps): RestHandler {
  validateRoutes(deps.schema, [...deps.surfaceR, ...deps.surfaceO]);
  const tableR = deps.surfaceR.map(compile);
  const tableO = deps.surfaceO.map(compile);
  // body-parser reads node's request as it is: limits, charsets, compressed bodies and their refusals.
  const parseJson = express.json({ limit: deps.bodyLimit, type: () => true });

  async function answer(req: IncomingMessage & { body?: unknown }, res: ServerResponse, target: RestTarget): Promise<void> {
    const body: unknown = req.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      sendEnvelope(res, 400, failure('request body must be a JSON object'));
      return;
    }
    // Express 5's "simple" query parser, which the facade has always read queries with.
    const query = parseQuery(target.search ?? '') as Record<string, unknown>;
    const credentialParam = Object.keys(query).find((k) => CREDENTIAL_PARAMS.has(k.toLowerCase().replace(/[-_]/g, '')));
    if (credentialParam !== undefined) {
      sendEnvelope(res, 400, failure(`credentials must not be sent in URL parameters (${credentialParam})`));
      return;
    }
    const bearer = bearerToken(req);
    const method = req.method ?? '';
    const base = { query, body: body as Record<string, unknown>, headers: req.headers };
    const found =
      bearer !== null ? match(tableO, method, target.path, base) : (match(tableR, method, target.path, base) ?? match(tableO, method, target.path, base));
    if (!found) {
      sendEnvelope(res, 404, failure(`no route ${method} ${target.path}`));
      return;
    }
    nameRoute(res, found.route.path);
    const actorHeader = requestHeader(req, 'x-actor')?.trim();
    const problem = requestInputProblem(found.req, actorHeader);
    if (problem) {
      sendEnvelope(res, 400, failure(problem));
      return;
    }
    const actor = actorHeader || found.route.defaultActor || DEFAULT_ACTOR[found.route.auth];
    await runInDoorScope({ requestId: requestHeader(req, 'x-request-id') || undefined, actor, principal: 'anonymous' }, async () => {
      const em = deps.orm.em.fork();
      try {
        const principal = await resolvePrincipal(deps, em, found.route, req, bearer);
        const ctx = await createContext({ em, principal, services: deps.services, requestId: currentScope()?.requestId ?? '' });
        const outcome = await idempotent(
          deps.services.idempotency,
          em,
          { key: requestHeader(req, IDEMPOTENCY_HEADER), method, path: target.baseUrl + target.path, body },
          ctx.access,
          (runEm) => runRoute(deps.schema, found.route, found.req, runEm === em ? ctx : contextOver(ctx, runEm)),
          {
            atomic: !found.route.callsOut,
          },
        );
        if (outcome.replayed) res.setHeader(REPLAYED_HEADER, 'true');
        sendJson(res, outcome.status, outcome.json, outcome.headers);
      } catch (err) {
        const outcome = fromError(err);
        sendEnvelope(res, outcome.status, outcome.body, outcome.headers);
      }
    });
  }

  return (req, res, target) => {
    const typeProblem = bodyTypeProblem(req);
    if (typeProblem) return sendEnvelope(res, 400, failure(typeProblem));
    parseJson(req, res, (err?: unknown) => {
      if (err) return refuseBody(res, err);
      answer(req, res, target).catch((failed: unknown) => {
        logger.error({ err: failed }, 'unhandled failure');
        if (!res.headersSent) sendEnvelope(res, 500, failure('internal server error'));
      });
    });
  };
}

/** body-parser's errors carry a type and an HTTP status. */
interface BodyError {
  type?: string;
  status?: number;
}

/** Why a body could not be read, as the envelope says it; anything else body-parser fails with is the server's. */
function refuseBody(res: ServerResponse, err: BodyError): void {
  if (err.type === 'entity.too.large') return sendEnvelope(res, 413, failure('request body too large'));
  if (err.type === 'entity.parse.failed' || err.status === 400) return sendEnvelope(res, 400, failure('malformed JSON body'));
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') return sendEnvelope(res, 400, failure('unsupported body encoding'));
  logger.error({ err }, 'unhandled failure');
  sendEnvelope(res, 500, failure('internal server error'));
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

function bearerToken(req: IncomingMessage): string | null {
  const value = req.headers.authorization;
  if (!value) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return m ? m[1] : value.toLowerCase().startsWith('bearer') ? '' : null;
}

async function resolvePrincipal(
  deps: RestRouterDeps,
  em: ReturnType<MikroORM['em']['fork']>,
  route: RestRoute,
  req: IncomingMessage,
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
      const refusal = bindingRefusal(
        host,
        mapping,
        { address: currentScope()?.clientAddress, certSha256: clientCertificateSha256(req.socket) },
        deps.hostBindingRequired,
      );
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
