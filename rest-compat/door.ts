import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { logger } from '../src/common/logger';
import { failure } from './envelope';
import type { RestTarget } from './router';
import { sendEnvelope } from './send';

/**
 * The HTTP server's listener (behind src/app.ts's hand-off of /graphql to the GraphQL door): a
 * request under the REST prefix goes to the facade on node's own request and response; everything
 * else (the console, the API reference, metrics, readiness, the supply callbacks, the CSV exports)
 * to express, as do the few reads under the prefix that express serves (`expressReads`: the
 * OpenAPI documents).
 *
 * Why the facade is not an express route: express costs every request it serves ~40 µs of CPU to
 * swap the request's and the response's prototypes for its own and as much again to walk its
 * router's layers, about a quarter of a cached read (docs/benchmarks.md, "Measured costs behind
 * code choices"), and the facade uses none of what that buys: it reads headers, writes one JSON
 * body, and parses bodies with body-parser, which takes node's request as it is.
 *
 * The prefix is matched as express mounts a path: without regard to case, up to a `/` or the end.
 */
export function frontDoor(
  prefix: string,
  expressReads: readonly string[],
  rest: (req: IncomingMessage, res: ServerResponse, target: RestTarget) => void,
  other: RequestListener,
): RequestListener {
  const onExpress = new Set(expressReads.map((p) => p.toLowerCase()));
  return (req, res) => {
    const target = restTarget(req.url ?? '', prefix);
    if (!target || ((req.method === 'GET' || req.method === 'HEAD') && onExpress.has(target.path.toLowerCase().replace(/(.)\/$/, '$1')))) {
      other(req, res);
      return;
    }
    try {
      rest(req, res, target);
    } catch (err) {
      // What express's final handler did for a throw in a layer: logged, a 500, the process kept.
      logger.error({ err }, 'unhandled failure');
      if (!res.headersSent) sendEnvelope(res, 500, failure('internal server error'));
    }
  };
}

/**
 * The request's target when it lies under `prefix`, else null (the GraphQL door's path is matched the same way). Origin-form (`/api/v1/…`) as
 * clients send it, or absolute-form (`http://host/api/v1/…`) as a proxy may; a fragment, which
 * no client should send, is not part of the path.
 */
export function restTarget(url: string, prefix: string): RestTarget | null {
  let rest = url;
  if (rest[0] !== '/') {
    const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
    if (!authority) return null;
    rest = rest.slice(authority[0].length) || '/';
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const path = q >= 0 ? rest.slice(0, q) : rest;
  if (path.length < prefix.length || path.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return null;
  if (path.length > prefix.length && path[prefix.length] !== '/') return null;
  return { baseUrl: path.slice(0, prefix.length), path: path.slice(prefix.length) || '/', search: q >= 0 ? rest.slice(q + 1) : null };
}
