import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signature of a provider's outcome callback (POST /supply/callbacks/:providerId):
 * header `x-supply-signature: t=<epoch ms>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * The timestamp is signed too, so a captured callback cannot be replayed after the tolerance.
 */
export const SIGNATURE_HEADER = 'x-supply-signature';
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export function signPayload(secret: string, timestampMs: number, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestampMs}.`).update(rawBody).digest('hex');
  return `t=${timestampMs},v1=${mac}`;
}

/** True when `header` is a valid signature of `rawBody` by `secret`, made within the tolerance of `now`. */
export function verifySignature(secret: string, header: string | undefined, rawBody: Buffer, now: Date): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!Number.isSafeInteger(t) || typeof parts.v1 !== 'string' || !/^[0-9a-f]{64}$/.test(parts.v1)) return false;
  if (Math.abs(now.getTime() - t) > SIGNATURE_TOLERANCE_MS) return false;
  const expected = Buffer.from(signPayload(secret, t, rawBody).split('v1=')[1], 'hex');
  return timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
}
