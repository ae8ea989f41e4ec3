import type { IncomingMessage } from 'node:http';

/** A request header as one string (node joins a repeated one, but for the few it keeps as a list). */
export function requestHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
