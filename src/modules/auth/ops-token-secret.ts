import { createHash, randomBytes } from 'node:crypto';

/**
 * What an ops token is and how it is stored (only a hash):
 * - a whole token, `ops_<43 characters>`, handed to one holder: stored as its SHA-256;
 * - a token in two parts, `ops_<43>.<43>`, for a principal created or reset by four eyes: the
 *   admin who asks receives the first part (`ops_<43>.`), the admin who approves the second, and
 *   only the person who gets both from the two of them holds a credential. The request keeps the
 *   SHA-256 of the first part (a commitment: it reveals nothing that authenticates), and approval
 *   stores SHA-256(that hash, `.`, second part), which is what the whole token hashes to.
 */
const PREFIX = 'ops_';
const PART = '[A-Za-z0-9_-]{43}';
const SPLIT = new RegExp(`^(${PREFIX}${PART})\\.(${PART})$`);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const part = () => randomBytes(32).toString('base64url');

export const isOpsToken = (token: string): boolean => token.startsWith(PREFIX);

/** A new whole token. */
export const newOpsToken = (): string => PREFIX + part();

/** The first part of a two-part token (`ops_….`, ending with the dot the second part follows) and the commitment the request keeps. */
export function newFirstPart(): { firstPart: string; commitment: string } {
  const first = PREFIX + part();
  return { firstPart: `${first}.`, commitment: sha256(first) };
}

/** The second part of a two-part token and the hash its whole token is stored under. */
export function newSecondPart(commitment: string): { secondPart: string; tokenHash: string } {
  const second = part();
  return { secondPart: second, tokenHash: sha256(`${commitment}.${second}`) };
}

/** The hash a presented token is looked up by (whole or in two parts, as above). */
export function opsTokenHash(token: string): string {
  const split = SPLIT.exec(token);
  return split ? sha256(`${sha256(split[1])}.${split[2]}`) : sha256(token);
}
