/**
 * The ops token, kept for this browser tab's session only (sessionStorage): closing the tab
 * signs out. In development a link `/console/#token=ops_…` (printed by a development start)
 * signs in directly; the fragment never reaches a server and is wiped from the address bar at
 * once. Elsewhere the gateway leaves out the page's `console-sign-in-link` meta tag and a link
 * signs nobody in: a link someone else sent could otherwise sign a victim in under their token.
 */
const KEY = 'ops-console.token';

/** Takes the token of a sign-in link in the address bar; whether there was one to take. */
export function takeTokenFromLink(): boolean {
  const m = /^#token=(ops_[A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (!m) return false;
  if (!document.querySelector('meta[name="console-sign-in-link"][content="on"]')) {
    history.replaceState(null, '', window.location.pathname);
    return false;
  }
  sessionStorage.setItem(KEY, m[1]);
  // The home screen, which the principal's roles choose (console/src/main.tsx: an approver's is Approvals).
  history.replaceState(null, '', `${window.location.pathname}#/`);
  return true;
}

/*
 * A new link opened in a tab that already shows the console (a restart printed a new one) changes
 * only the hash: no page loads. It is taken here, before the screens hear of the change, so no
 * request goes out with the old token after it; then the console signs in with it at once.
 */
const linkListeners = new Set<() => void>();
export function onTokenFromLink(l: () => void): () => void {
  linkListeners.add(l);
  return () => linkListeners.delete(l);
}
window.addEventListener('hashchange', () => {
  if (!takeTokenFromLink()) return;
  linkListeners.forEach((l) => l());
  // The address bar now reads `#/` (replaceState tells no one): the router follows it.
  window.dispatchEvent(new HashChangeEvent('hashchange'));
});

export const currentToken = (): string | null => sessionStorage.getItem(KEY);

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
