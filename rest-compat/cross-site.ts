import type { NextFunction, Request, Response } from 'express';
import { failure } from './envelope';

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
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    const fetchSite = req.get('sec-fetch-site')?.trim().toLowerCase();
    const originAllowed = origin !== undefined && allowed.has(origin.trim().toLowerCase());
    if (origin !== undefined && !originAllowed) return refuse(res, `cross-site request refused: origin ${printable(origin)} is not allowed`);
    if (fetchSite !== undefined && !FIRST_PARTY_FETCH.has(fetchSite) && !originAllowed)
      return refuse(res, `cross-site request refused: Sec-Fetch-Site ${printable(fetchSite)}`);
    if (originAllowed) {
      res.set({ 'access-control-allow-origin': origin.trim(), vary: 'Origin' });
      if (req.method === 'OPTIONS') {
        res.set({
          'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
          'access-control-allow-headers': 'authorization, content-type, idempotency-key, x-actor, x-request-id',
          'access-control-max-age': '600',
        });
        res.status(204).end();
        return;
      }
    }
    next();
  };
}

function refuse(res: Response, message: string): void {
  res.status(403).json(failure(message));
}

/** A header value as it may appear in a message: printable ASCII, at most 100 characters; `""` when empty. */
const printable = (value: string) => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 100) || '""';
