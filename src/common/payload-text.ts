/**
 * A value of an event's stored payload as text, `null` when absent. The payloads are JSON the
 * gateway wrote itself (ids, decimals as strings, hashes, numbers), so `String` never meets an
 * object here; the payload is typed `unknown` only because it comes back from a jsonb column.
 */
export function payloadText(v: unknown): string | null {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a JSON scalar the gateway wrote (above)
  return v === undefined || v === null ? null : String(v);
}
