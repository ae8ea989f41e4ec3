import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { createClient, type Client } from 'graphql-ws';
import { retryable } from './socket-retry';

/**
 * The console's GraphQL client: typed documents from GraphQL Code Generator, sent with fetch
 * (queries, mutations) and graphql-ws (subscriptions) to the gateway's own /graphql, signed in by
 * the session cookie the browser sends (api/session.ts): no request names a token. No normalized cache: each screen reads what it shows and reads again when a live event
 * says it changed, which keeps what is on screen equal to the book.
 */
export type Doc<R, V> = DocumentTypeDecoration<R, V> & { toString(): string };

/** One refused field of an input (`extensions.fields`): its path (`details.isin`) and what is wrong, in words. */
export interface FieldRefusal {
  path: string;
  message: string;
}

/** A refused request: the documented message, its code (`extensions.code`) and, for an input, every refused field. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly fields: readonly FieldRefusal[] = [],
  ) {
    super(message);
  }
}

type Listener = (signedOut: boolean) => void;
const authListeners = new Set<Listener>();
/** Which session requests go out in: a refusal of an older one (a request sent before a new sign-in) signs nobody out. */
let session = 0;
/** A new session (a sign-in, a sign-out): the socket opens again with the new cookie. */
export function sessionChanged(): void {
  session++;
  closeLive();
}
/** Called when the gateway no longer accepts the session (ended, its token revoked, or a new start in development). */
export function onSignedOut(l: Listener): () => void {
  authListeners.add(l);
  return () => authListeners.delete(l);
}

export async function request<R, V>(doc: Doc<R, V>, variables?: V): Promise<R> {
  const sentIn = session;
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: doc.toString(), variables: variables ?? {} }),
    });
  } catch {
    throw new ApiError('the gateway cannot be reached', 'NETWORK');
  }
  const body = (await res.json().catch(() => null)) as {
    data?: R;
    errors?: { message: string; extensions?: { code?: string; fields?: FieldRefusal[] } }[];
  } | null;
  const error = body?.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'ERROR';
    if (code === 'UNAUTHENTICATED' && sentIn === session) authListeners.forEach((l) => l(true));
    throw new ApiError(error.message, code, error.extensions?.fields ?? coercionRefusals(body.errors!));
  }
  if (!res.ok || !body?.data) throw new ApiError(`the gateway answered HTTP ${res.status}`, 'HTTP');
  return body.data;
}

/**
 * The fields GraphQL itself refused while reading the variables (an empty number, a null where the
 * schema says `!`), one error each, as `extensions.fields` would name them: `Variable "$in" got
 * invalid value null at "in.feesSubBps"; Expected non-nullable type "Int!" not to be null.`
 */
function coercionRefusals(errors: { message: string }[]): FieldRefusal[] {
  return errors.flatMap((e) => {
    const m = /^Variable "\$\w+" got invalid value .* at "\w+\.([\w.]+)"; (.*)$/.exec(e.message);
    if (!m) return [];
    return [{ path: m[1], message: /not to be null/.test(m[2]) ? 'is required' : /decimal/i.test(m[2]) ? 'must be a decimal number' : 'must be a number' }];
  });
}

let ws: { client: Client; session: number } | null = null;

/** The socket of the current session: its upgrade request carries the session cookie. */
function wsClient(): Client {
  if (ws?.session === session) return ws.client;
  void ws?.client.dispose();
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/graphql`;
  ws = { session, client: createClient({ url, retryAttempts: Infinity, shouldRetry: retryable }) };
  return ws.client;
}

/** Live data: calls `next` for each message until the returned function is called. */
export function subscribe<R, V>(doc: Doc<R, V>, variables: V, next: (data: R) => void): () => void {
  return wsClient().subscribe<R>(
    { query: doc.toString(), variables: variables ?? {} },
    { next: (m) => m.data && next(m.data), error: () => undefined, complete: () => undefined },
  );
}

export function closeLive(): void {
  void ws?.client.dispose();
  ws = null;
}
