import { timingSafeEqual, createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';
import { apiReference, DOCS_PATH } from '../../rest-compat/openapi/reference';
import { failure, success } from '../../rest-compat/envelope';
import type { RestRoute } from '../../rest-compat/route';
import type { Clock } from '../common/clock';
import { GatewayMetrics } from './metrics';
import { checkReadiness } from './readiness';
import { assignRequestId } from './request-id';
import { logRequest } from './request-log';

export const METRICS_PATH = '/metrics';
export const READY_PATH = '/ready';

export interface OperationsDeps {
  orm: MikroORM;
  clock: Clock;
  /** Bearer token /metrics and the detailed /ready require (METRICS_TOKEN); null leaves /metrics open in development and test only. */
  metricsToken: string | null;
  /** Development or test (isDevelopmentEnv): elsewhere a gateway without a metrics token keeps /metrics shut. */
  development: boolean;
}

/**
 * What the people who run the gateway and the distributors' developers get besides the API:
 * `x-request-id` on every response, Prometheus metrics, readiness, and the API reference.
 * Both doors of app.ts call `arrive` first with every request; `mount` serves the rest on express.
 */
export function operations(deps: OperationsDeps) {
  const metrics = new GatewayMetrics(deps.orm, deps.clock);
  let draining = false;
  return {
    metrics,
    /** From now on /ready answers 503 `draining`: load balancers take this instance out of rotation while it still serves. */
    drain() {
      draining = true;
    },
    /** A request's arrival: its id (echoed as `x-request-id`, returned for its scope) and its timer. */
    arrive(req: IncomingMessage, res: ServerResponse): string {
      const id = assignRequestId(req, res);
      metrics.time(req, res);
      logRequest(req, res, id);
      return id;
    },
    mount(app: Express, restPrefix: string, surfaceR: RestRoute[], surfaceO: RestRoute[]) {
      const reference = apiReference(restPrefix, surfaceR, surfaceO);
      app.use(restPrefix, reference.openapi);
      app.use(DOCS_PATH, reference.docs);
      app.get(METRICS_PATH, async (req: Request, res: Response) => {
        // Fail closed: outside development a gateway built without a token serves no metrics at all.
        if (deps.metricsToken === null && !deps.development) {
          res.status(403).json(failure('metrics are disabled: METRICS_TOKEN is not configured'));
          return;
        }
        if (deps.metricsToken !== null && !bearerMatches(req.get('authorization'), deps.metricsToken)) {
          res.status(401).json(failure('metrics token required'));
          return;
        }
        res.type(metrics.contentType).send(await metrics.scrape());
      });
      // Load balancers learn ready or not; why (migration names, the database's state) only the metrics token's holder.
      app.get(READY_PATH, async (req: Request, res: Response) => {
        const r = draining ? ({ ready: false, reason: 'draining' } as const) : await checkReadiness(deps.orm);
        const detailed = deps.metricsToken !== null && bearerMatches(req.get('authorization'), deps.metricsToken);
        if (r.ready) res.json(success(detailed ? { status: 'ready', database: 'ok', migrations: { applied: r.migrations, pending: 0 } } : { status: 'ready' }));
        else res.status(503).json(failure(detailed ? r.reason : 'not ready'));
      });
      return reference.documents;
    },
  };
}

/** Constant-time comparison of `Authorization: Bearer <token>` (hashes first: equal lengths). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}
