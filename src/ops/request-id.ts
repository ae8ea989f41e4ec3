import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const HEADER = 'x-request-id';
/** What a caller's id may look like; anything else is replaced (it ends up in logs). */
const ACCEPTED = /^[\w.:@/+=-]{1,128}$/;

/**
 * Every response echoes `x-request-id`: the caller's when it sent a usable one, else a new one.
 * The header is set on the request too, so the request scope (src/common/request-scope.ts),
 * opened later by each door, carries this same id into the log lines.
 */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const sent = req.get(HEADER);
  const id = sent && ACCEPTED.test(sent) ? sent : randomUUID();
  req.headers[HEADER] = id;
  res.setHeader(HEADER, id);
  next();
}
