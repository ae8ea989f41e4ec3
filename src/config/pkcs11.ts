import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { appEnvOf } from './environment';
import { readSecretFile } from './secret-file';
import { Secret } from './secret';

/** The user PIN of a PKCS#11 token (read from a variable or a file, never from CHAINS). */
export class Pkcs11Pin extends Secret {}

/**
 * An agent key in an HSM, reached through its PKCS#11 library (AWS CloudHSM, Thales Luna,
 * YubiHSM 2, SoftHSM …): the token by its label, the secp256k1 key pair in it by its label.
 */
export interface Pkcs11SignerConfig {
  /** Absolute path of the vendor's PKCS#11 library (e.g. /usr/lib/softhsm/libsofthsm2.so). */
  library: string;
  /** CKA_LABEL of the token (CK_TOKEN_INFO.label) that holds the key. */
  tokenLabel: string;
  /** CKA_LABEL of the key pair (private and public key objects). */
  keyLabel: string;
  /** The crypto user's PIN; on CloudHSM `user:password`. */
  pin: Pkcs11Pin;
}

const FIELDS = ['kind', 'library', 'tokenLabel', 'keyLabel', 'pinEnv', 'pinFile'];

/**
 * CHAINS.<id>.signer: `{"kind": "pkcs11", "library": "/usr/lib/softhsm/libsofthsm2.so",
 * "tokenLabel": "gateway", "keyLabel": "agent-1", "pinEnv": "HSM_PIN" | "pinFile": "/run/secrets/hsm-pin"}`.
 * Every mistake is named; the PIN never is.
 */
export function parsePkcs11Signer(at: string, raw: unknown, env: NodeJS.ProcessEnv, problems: string[]): Pkcs11SignerConfig | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${at} must be an object: {"kind": "pkcs11", "library", "tokenLabel", "keyLabel", "pinEnv" | "pinFile"}`);
    return null;
  }
  const v = raw as Record<string, unknown>;
  if (v.kind !== 'pkcs11') {
    problems.push(`${at}.kind must be "pkcs11" (a key held by the process is named by agentKeyEnv or agentKeyFile)`);
    return null;
  }
  if (v.pin !== undefined) problems.push(`${at}.pin is refused: name a variable (pinEnv) or a file (pinFile) holding the PIN`);
  for (const key of Object.keys(v))
    if (key !== 'pin' && !FIELDS.includes(key)) problems.push(`${at}.${key} is not a field of a PKCS#11 signer (${FIELDS.join(', ')})`);
  const before = problems.length;
  if (typeof v.library !== 'string' || !isAbsolute(v.library)) problems.push(`${at}.library must be the absolute path of the HSM's PKCS#11 library`);
  else if (!existsSync(v.library)) problems.push(`${at}.library does not exist: "${v.library}"`);
  for (const field of ['tokenLabel', 'keyLabel']) {
    const label = v[field];
    if (typeof label !== 'string' || label === '' || Buffer.byteLength(label) > (field === 'tokenLabel' ? 32 : 256))
      problems.push(`${at}.${field} must be a non-empty label${field === 'tokenLabel' ? ' of at most 32 bytes' : ''}`);
  }
  const pin = readPin(at, v, env, problems);
  if (problems.length > before || !pin) return null;
  return { library: v.library as string, tokenLabel: v.tokenLabel as string, keyLabel: v.keyLabel as string, pin };
}

function readPin(at: string, v: Record<string, unknown>, env: NodeJS.ProcessEnv, problems: string[]): Pkcs11Pin | null {
  if (v.pinEnv !== undefined && v.pinFile !== undefined) {
    problems.push(`${at} must name pinEnv or pinFile, not both`);
    return null;
  }
  let pin: string | undefined;
  if (typeof v.pinEnv === 'string') {
    pin = env[v.pinEnv];
    if (!pin) problems.push(`${at}.pinEnv names ${v.pinEnv}, which is not set`);
  } else if (typeof v.pinFile === 'string') {
    // The PIN file is held to the key file's rule: others may not read it.
    const text = readSecretFile(`${at}.pinFile`, v.pinFile, appEnvOf(env), problems);
    if (text !== undefined) {
      pin = text.replace(/\r?\n$/, '');
      if (!pin) problems.push(`${at}.pinFile is empty: "${v.pinFile}"`);
    }
  } else {
    problems.push(`${at} must name the token's PIN: pinEnv (a variable) or pinFile (a file)`);
  }
  return pin ? new Pkcs11Pin(pin) : null;
}

/** The key as the gateway names it in its start-up lines and errors. */
export const describePkcs11Key = (c: Pkcs11SignerConfig): string => `agent key "${c.keyLabel}" in PKCS#11 token "${c.tokenLabel}"`;
