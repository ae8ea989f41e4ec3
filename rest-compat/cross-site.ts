import type { IncomingMessage, ServerResponse } from 'node:http';
import { failure } from './envelope';
import { requestHeader } from './request-header';
import { sendEnvelope } from './send';

/** What a browser says when the page that made the request is this gateway's own, or no page at all. */
const FIRST_PARTY_FETCH = new Set(['same-origin', 'none']);

/**
 * Cross-site requests are refused under `/api/v1` (403 in the envelope), before any route runs.
 * Surface R names its caller by hostname and surface O by a header a page cannot set without a
 * preflight, yet a page on another site can still make a victim's browser send a bodiless POST
 * (a `<form>`, `sendBeacon`, a `no-cors` fetch) to a push or cancel route. Browsers mark such a
 * request with `Origin` and `Sec-Fetch-Site`; server backends (curl, SDKs) send neither, so they
 * are untouched. An origin listed in CORS_ALLOWED_ORIGINS may call, with the CORS headers that
 * let its page read the answer.
 */
export function crossSiteGuard(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins.map((o) => o.toLowerCase()));
  /** True when the guard answered (a refusal, or an allowed origin's preflight); false: go on. */
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const origin = req.headers.origin;
    const fetchSite = requestHeader(req, 'sec-fetch-site')?.trim().toLowerCase();
    const originAllowed = origin !== undefined && allowed.has(origin.trim().toLowerCase());
    if (origin !== undefined && !originAllowed) return refuse(res, `cross-site request refused: origin ${printable(origin)} is not allowed`);
    if (fetchSite !== undefined && !FIRST_PARTY_FETCH.has(fetchSite) && !originAllowed)
      return refuse(res, `cross-site request refused: Sec-Fetch-Site ${printable(fetchSite)}`);
    if (originAllowed) {
      res.setHeader('access-control-allow-origin', origin.trim());
      res.setHeader('vary', 'Origin');
      if (req.method === 'OPTIONS') {
        res.setHeader('access-control-allow-methods', 'GET, POST, PATCH, DELETE');
        res.setHeader('access-control-allow-headers', 'authorization, content-type, idempotency-key, x-actor, x-request-id');
        res.setHeader('access-control-max-age', '600');
        res.statusCode = 204;
        res.end();
        return true;
      }
    }
    return false;
  };
}

function refuse(res: ServerResponse, message: string): true {
  sendEnvelope(res, 403, failure(message));
  return true;
}

/** A header value as it may appear in a message: printable ASCII, at most 100 characters; `""` when empty. */
const printable = (value: string) => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 100) || '""';
