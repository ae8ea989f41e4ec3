import type { IncomingMessage } from 'node:http';
import { inputProblem, textProblem } from '../src/common/validate';
import type { RestRequest } from './route';

/*
 * Input hygiene of the REST facade, before any route runs: what the request carries must be JSON,
 * and every value in it (path ids, query parameters, body fields, the actor) must pass the shared
 * rules of src/common/validate.ts. Each refusal is a 400 in the envelope naming the field.
 */

/**
 * The one body media type accepted (with any charset), and its structured-syntax variants
 * (`application/*+json`): the type of `Content-Type`, lower-cased, parameters and spaces aside.
 */
const JSON_TYPE = /^application\/(json|[!#$%&'*+.^_`|~0-9a-z-]*\+json)$/;

/**
 * A request body must be declared JSON. A `text/plain` or form POST is what a browser sends
 * cross-site without a preflight, so accepting one would let any web page place orders through
 * a distributor's surface-R hostname (CSRF). A request without a body (push, cancel) needs no
 * content type.
 */
export function bodyTypeProblem(req: IncomingMessage): string | null {
  if (!hasBody(req)) return null;
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
  return JSON_TYPE.test(type) ? null : 'request body must be sent as application/json';
}

function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return !Number.isNaN(length) && length > 0;
}

/** The first problem of a matched request's values, named by path parameter, query parameter or body field. */
export function requestInputProblem(req: RestRequest, actor: string | undefined): string | null {
  for (const [name, value] of Object.entries(req.params)) {
    const problem = textProblem(value, name);
    if (problem) return problem;
  }
  for (const [name, value] of Object.entries(req.query)) {
    const problem = textProblem(name, 'query parameter name') ?? inputProblem(value, name);
    if (problem) return problem;
  }
  return inputProblem(req.body, 'body') ?? (actor === undefined ? null : textProblem(actor, 'x-actor'));
}
