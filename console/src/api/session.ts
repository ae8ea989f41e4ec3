/**
 * The ops token, kept for this browser tab's session only (sessionStorage): closing the tab
 * signs out. In development a link `/console/#token=ops_…` (printed by a development start)
 * signs in directly; the fragment never reaches a server and is wiped from the address bar at
 * once. Elsewhere the gateway leaves out the page's `console-sign-in-link` meta tag and a link
 * signs nobody in: a link someone else sent could otherwise sign a victim in under their token.
 */
const KEY = 'ops-console.token';

export function takeTokenFromLink(): void {
  const m = /^#token=(ops_[A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (!m) return;
  if (!document.querySelector('meta[name="console-sign-in-link"][content="on"]')) {
    history.replaceState(null, '', window.location.pathname);
    return;
  }
  sessionStorage.setItem(KEY, m[1]);
  history.replaceState(null, '', `${window.location.pathname}#/orders`);
}

export const currentToken = (): string | null => sessionStorage.getItem(KEY);

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
