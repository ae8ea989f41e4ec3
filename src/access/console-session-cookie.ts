import type { IncomingMessage } from 'node:http';

/**
 * The console's session cookie (src/modules/auth/console-session.service.ts), and the one rule for
 * when a request may be authenticated by it: only the console's own requests, from its own origin.
 *
 * It is HttpOnly (no script of the page reads it), SameSite=Strict (a browser sends it on no
 * request another site starts, a top-level link included), Secure when the gateway is reached over
 * https, host-only, and Max-Age its session's lifetime. On top of SameSite, a door reads it only
 * when the request itself shows it comes from the gateway's own origin: `Origin` equal to the
 * request's host, or with no `Origin`, `Sec-Fetch-Site: same-origin`; any other evidence (another
 * origin, `Sec-Fetch-Site` cross-site or same-site) or none at all (a client that is no browser)
 * leaves the cookie unread, as if absent. The doors that read it are the console's: /graphql
 * (HTTP and graphql-ws) and the register's CSV exports; the REST surfaces never do.
 */
export const CONSOLE_SESSION_COOKIE = 'ops_console';

/** Whether the request shows it comes from a page of the gateway's own origin (above). */
export function fromOwnOrigin(req: IncomingMessage): boolean {
  const site = single(req.headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = single(req.headers.origin);
  if (origin === undefined) return site === 'same-origin';
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** The session cookie's value when the request may use it (its own origin), else undefined. */
export function consoleSessionOf(req: IncomingMessage): string | undefined {
  if (!fromOwnOrigin(req)) return undefined;
  return cookieValue(req, CONSOLE_SESSION_COOKIE);
}

/** The `Set-Cookie` that opens a session (`maxAgeSeconds` > 0) or clears it (0). */
export function sessionCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${CONSOLE_SESSION_COOKIE}=${value}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ');
}

/** One cookie's value from the `Cookie` header (its first occurrence). */
function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
