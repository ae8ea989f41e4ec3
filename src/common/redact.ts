import { isDatabaseUnavailable } from './errors';

/**
 * What reaches a log or an error message of a URL or an error: never a secret. RPC providers put
 * their keys in a URL's path or query (`https://rpc.example/v2/<key>`) or userinfo, and viem's
 * errors carry the URL and the request body: one function for each, used by the logger itself.
 */

/** `scheme://host[:port]` kept; userinfo, path and query replaced by `…`. Not a URL: `[url]`. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '[url]';
  }
  const user = url.username || url.password ? '…@' : '';
  const path = url.pathname && url.pathname !== '/' ? '/…' : '';
  const query = url.search ? '?…' : '';
  return `${url.protocol}//${user}${url.host}${path}${query}${url.hash ? '#…' : ''}`;
}

const URLS = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;

/** Every URL in a text redacted, and the lines viem adds with request bodies dropped. */
export function redactText(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(Request body|Raw Call Arguments|data):/i.test(line))
    .join('\n')
    .replace(URLS, (u) => redactUrl(u));
}

/**
 * An error as a log line may carry it: viem's by its short message, a database that is away by
 * its message and code (an outage is not a bug: no stack), others with a redacted stack; each
 * with its cause.
 */
export function safeError(err: unknown, depth = 0): unknown {
  if (typeof err === 'string') return redactText(err);
  if (!(err instanceof Error)) return err;
  const short = (err as { shortMessage?: unknown }).shortMessage;
  const out: Record<string, unknown> = { type: err.name, message: redactText(typeof short === 'string' ? short : err.message) };
  const code = (err as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  // viem's errors (those with a short message) say it all there; their stack repeats the body
  if (typeof short !== 'string' && err.stack && !isDatabaseUnavailable(err)) out.stack = redactText(err.stack);
  if (err.cause !== undefined && depth < 3) out.cause = safeError(err.cause, depth + 1);
  return out;
}

/** An error's one-line account for a warning: viem's short message, else the message; redacted. */
export function shortMessage(err: unknown): string {
  if (!(err instanceof Error)) return redactText(String(err));
  const short = (err as { shortMessage?: unknown }).shortMessage;
  return redactText(typeof short === 'string' ? short : err.message);
}
