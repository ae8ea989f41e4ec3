import type { IncomingMessage, ServerResponse } from 'node:http';
import { logger } from '../common/logger';
import { routeLabel } from './metrics';

/**
 * One `info` line per answered request, for the operator reading logs: method, route, status,
 * time and request id. The route is the metrics' label (a route row's path such as
 * `/orders/:id`, or the mount), never the raw URL: a query string or a path may carry what no
 * log should (a webhook's URL, an e-mail), and no header or body is read.
 */
export function logRequest(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, requestId: string): void {
  if (!logger.isLevelEnabled('info')) return;
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const ms = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
    logger.info({ requestId, method: req.method, route: routeLabel(req, res), status: res.statusCode, ms }, 'request');
  });
}
