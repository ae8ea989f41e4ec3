import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const HEADER = 'x-request-id';
/** What a caller's id may look like; anything else is replaced (it ends up in logs). */
const ACCEPTED = /^[\w.:@/+=-]{1,128}$/;

/**
 * Every response echoes `x-request-id`: the caller's when it sent a usable one, else a new one.
 * The header is set on the request too, so whatever reads the request later (the request scope,
 * src/common/request-scope.ts, and each door) carries this same id into the log lines.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers[HEADER];
  const id = typeof sent === 'string' && ACCEPTED.test(sent) ? sent : randomUUID();
  req.headers[HEADER] = id;
  res.setHeader(HEADER, id);
  return id;
}
