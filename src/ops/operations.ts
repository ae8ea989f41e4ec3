import { timingSafeEqual, createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Express, Request, Response } from 'express';
import { apiReference, DOCS_PATH } from '../../rest-compat/openapi/reference';
import { failure, success } from '../../rest-compat/envelope';
import type { RestRoute } from '../../rest-compat/route';
import type { Clock } from '../common/clock';
import { GatewayMetrics } from './metrics';
import { checkReadiness } from './readiness';
import { requestId } from './request-id';

export const METRICS_PATH = '/metrics';
export const READY_PATH = '/ready';

export interface OperationsDeps {
  orm: MikroORM;
  clock: Clock;
  /** Bearer token /metrics requires (METRICS_TOKEN); null leaves it open. */
  metricsToken: string | null;
}

/**
 * What the people who run the gateway and the distributors' developers get besides the API:
 * `x-request-id` on every response, Prometheus metrics, readiness, and the API reference.
 * app.ts mounts `first` before everything and `mount` before the REST facade.
 */
export function operations(deps: OperationsDeps) {
  const metrics = new GatewayMetrics(deps.orm, deps.clock);
  return {
    metrics,
    first: [requestId, metrics.http],
    mount(app: Express, restPrefix: string, surfaceR: RestRoute[], surfaceO: RestRoute[]) {
      const reference = apiReference(restPrefix, surfaceR, surfaceO);
      app.use(restPrefix, reference.openapi);
      app.use(DOCS_PATH, reference.docs);
      app.get(METRICS_PATH, async (req: Request, res: Response) => {
        if (deps.metricsToken !== null && !bearerMatches(req.get('authorization'), deps.metricsToken)) {
          res.status(401).json(failure('metrics token required'));
          return;
        }
        res.type(metrics.contentType).send(await metrics.scrape());
      });
      app.get(READY_PATH, async (_req: Request, res: Response) => {
        const r = await checkReadiness(deps.orm);
        if (r.ready) res.json(success({ status: 'ready', database: 'ok', migrations: { applied: r.migrations, pending: 0 } }));
        else res.status(503).json(failure(r.reason));
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
