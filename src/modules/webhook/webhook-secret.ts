import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/*
 * Secrets and signatures as the Standard Webhooks specification has them: a `whsec_` secret of
 * random bytes in base64, and `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with
 * the secret's decoded bytes. Secrets are stored encrypted with AES-256-GCM so a database dump
 * alone cannot forge deliveries.
 */

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: above the specification's minimum of 24. */
const SECRET_BYTES = 32;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** `v1,<signature>` of one secret. */
export function signature(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${msgId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per live secret, space-separated (rotation). */
export function signatureHeader(secrets: string[], msgId: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => signature(s, msgId, timestampSeconds, body)).join(' ');
}

/** `v1.<iv>.<tag>.<ciphertext>`, all base64. */
export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join('.');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, ct] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unreadable webhook secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
}
