import { ApiError } from './client';

/**
 * The console's session (docs/console.md#sessions). An ops token, typed in the sign-in form or
 * carried by a development link `/console/#token=ops_…`, is exchanged ONCE with the gateway
 * (`POST /console/session`) for an HttpOnly session cookie; the page then forgets it. No script
 * holds a credential afterwards and nothing is kept in web storage: every request of the page (and
 * of any tab it opens, Ctrl+click included) carries the cookie, while its session lives.
 *
 * A link's fragment never reaches a server and is wiped from the address bar at once. Outside
 * development the gateway leaves out the page's `console-sign-in-link` meta tag and a link signs
 * nobody in: a link someone else sent could otherwise sign a victim in under their token.
 */
const SESSION_PATH = '/console/session';

/** Takes the token of a sign-in link in the address bar (wiping it); null when there is none to take. */
export function takeTokenFromLink(): string | null {
  const m = /^#token=(ops_[A-Za-z0-9_.-]+)/.exec(window.location.hash);
  if (!m) return null;
  if (!document.querySelector('meta[name="console-sign-in-link"][content="on"]')) {
    history.replaceState(null, '', window.location.pathname);
    return null;
  }
  // The home screen, which the principal's roles choose (console/src/main.tsx: an approver's is Approvals).
  history.replaceState(null, '', `${window.location.pathname}#/`);
  return m[1];
}

/** Exchanges an ops token for the session cookie; resolves to the principal's name. */
export async function openSession(token: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(SESSION_PATH, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  } catch {
    throw new ApiError('the gateway cannot be reached', 'NETWORK');
  }
  const body = (await res.json().catch(() => null)) as { errorMsg?: string; data?: { name?: string } } | null;
  if (res.status !== 201 || !body?.data?.name) {
    throw new ApiError(body?.errorMsg ?? `the gateway answered HTTP ${res.status}`, res.status === 401 ? 'UNAUTHENTICATED' : 'HTTP');
  }
  return body.data.name;
}

/** Signing out: the gateway ends the session and clears its cookie (the token itself lives on). */
export async function endSession(): Promise<void> {
  await fetch(SESSION_PATH, { method: 'DELETE' }).catch(() => undefined);
}

/*
 * A new link opened in a tab that already shows the console (a restart printed a new one) changes
 * only the hash: no page loads. It is taken here, before the screens hear of the change, and
 * exchanged; then the console signs in with its session at once.
 */
const linkListeners = new Set<(session: Promise<string>) => void>();
export function onTokenFromLink(l: (session: Promise<string>) => void): () => void {
  linkListeners.add(l);
  return () => linkListeners.delete(l);
}
window.addEventListener('hashchange', () => {
  const token = takeTokenFromLink();
  if (!token) return;
  const session = openSession(token);
  linkListeners.forEach((l) => l(session));
  // The address bar now reads `#/` (replaceState tells no one): the router follows it.
  window.dispatchEvent(new HashChangeEvent('hashchange'));
});
