import { randomBytes } from 'node:crypto';
import * as graphene from 'graphene-pk11';
import type { Address } from 'viem';
import { addressOfEcPoint } from './ecdsa';
import type { Pkcs11SignerConfig } from '../../../config/pkcs11';

/** secp256k1's curve (OID 1.3.132.0.10) as DER: the CKA_EC_PARAMS of an agent key. */
export const SECP256K1_EC_PARAMS = Buffer.from('06052b8104000a', 'hex');

/** The PKCS#11 result code of a failed call (`CKR_…`), or the error's message. */
export const pkcs11Code = (err: unknown): string => (err as Error)?.message?.match(/CKR_[A-Z_]+/)?.[0] ?? String((err as Error)?.message ?? err);

/*
 * A PKCS#11 library is initialised once per process (a second C_Initialize answers
 * CKR_CRYPTOKI_ALREADY_INITIALIZED) and finalised when its last session is closed, so a signer
 * per chain on one HSM shares it.
 */
const loaded = new Map<string, { module: graphene.Module; users: number }>();

function acquire(library: string): graphene.Module {
  const known = loaded.get(library);
  if (known) {
    known.users++;
    return known.module;
  }
  const module = graphene.Module.load(library);
  try {
    module.initialize();
  } catch (err) {
    if (pkcs11Code(err) !== 'CKR_CRYPTOKI_ALREADY_INITIALIZED') throw err;
  }
  loaded.set(library, { module, users: 1 });
  return module;
}

function release(library: string): void {
  const known = loaded.get(library);
  if (!known || --known.users > 0) return;
  loaded.delete(library);
  try {
    known.module.finalize();
  } catch {
    // Already finalised (another copy of this module in the process did): nothing to end.
  }
}

/** The agent key pair in a token: the private key (a handle: its value never leaves the HSM) and the address of its public key. */
export interface AgentKeyPair {
  privateKey: graphene.PrivateKey;
  address: Address;
}

type TokenConfig = Pick<Pkcs11SignerConfig, 'library' | 'tokenLabel' | 'pin'>;

/** A logged-in session on the token of a label. Opening and closing are synchronous, like PKCS#11 itself. */
export class Pkcs11Token {
  private closed = false;

  private constructor(
    readonly config: TokenConfig,
    readonly slot: graphene.Slot,
    readonly session: graphene.Session,
  ) {}

  static open(config: TokenConfig): Pkcs11Token {
    const module = acquire(config.library);
    try {
      const slots = module.getSlots(true);
      const labels: string[] = [];
      let slot: graphene.Slot | null = null;
      for (let i = 0; i < slots.length; i++) {
        const s = slots.items(i);
        const token = s.getToken();
        if (!(token.flags & graphene.TokenFlag.TOKEN_INITIALIZED)) continue;
        labels.push(`"${token.label}"`);
        if (token.label === config.tokenLabel) slot = s;
      }
      if (!slot) throw new Error(`the PKCS#11 library ${config.library} has no token labelled "${config.tokenLabel}" (tokens: ${labels.join(', ') || 'none'})`);
      const session = slot.open(graphene.SessionFlag.SERIAL_SESSION | graphene.SessionFlag.RW_SESSION);
      try {
        session.login(config.pin.reveal(), graphene.UserType.USER);
      } catch (err) {
        // Logged in already: PKCS#11 login is per application and token, and another session of this process did it.
        if (pkcs11Code(err) !== 'CKR_USER_ALREADY_LOGGED_IN') {
          session.close();
          throw new Error(`logging in to the PKCS#11 token "${config.tokenLabel}" failed: ${pkcs11Code(err)}`, { cause: err });
        }
      }
      return new Pkcs11Token(config, slot, session);
    } catch (err) {
      release(config.library);
      throw err;
    }
  }

  /**
   * The secp256k1 key pair of the label, checked to be what an agent key must be: one of it, on
   * secp256k1, able to sign, and unable to leave the HSM (sensitive, not extractable). Null when
   * the token holds no private key of that label.
   */
  findKeyPair(label: string): AgentKeyPair | null {
    const privates = this.session.find({ class: graphene.ObjectClass.PRIVATE_KEY, keyType: graphene.KeyType.EC, label });
    if (privates.length === 0) return null;
    const at = `the key labelled "${label}" in token "${this.config.tokenLabel}"`;
    if (privates.length > 1)
      throw new Error(`${privates.length} private keys are labelled "${label}" in token "${this.config.tokenLabel}": the agent key must be one`);
    const privateKey = privates.items(0).toType<graphene.PrivateKey>();
    const guard = privateKey.getAttribute({ sensitive: null, extractable: null, sign: null });
    if (guard.sensitive !== true || guard.extractable !== false)
      throw new Error(
        `${at} could leave the HSM (CKA_SENSITIVE ${guard.sensitive}, CKA_EXTRACTABLE ${guard.extractable}): an agent key must be sensitive and not extractable`,
      );
    if (guard.sign !== true) throw new Error(`${at} may not sign (CKA_SIGN false)`);
    const publics = this.session.find({ class: graphene.ObjectClass.PUBLIC_KEY, keyType: graphene.KeyType.EC, label });
    if (publics.length !== 1) throw new Error(`${at} has ${publics.length} public keys of its label; its address is read from exactly one`);
    // CKA_EC_PARAMS and CKA_ECDSA_PARAMS are one attribute; graphene names it by the older name when reading.
    const pub = publics.items(0).getAttribute({ paramsECDSA: null, pointEC: null });
    if (!pub.paramsECDSA || !Buffer.from(pub.paramsECDSA).equals(SECP256K1_EC_PARAMS))
      throw new Error(`${at} is not on secp256k1 (CKA_EC_PARAMS ${pub.paramsECDSA?.toString('hex')})`);
    return { privateKey, address: addressOfEcPoint(pub.pointEC!) };
  }

  /** Generates a secp256k1 key pair of the label in the token, its private half sensitive and never extractable. */
  generateKeyPair(label: string): AgentKeyPair {
    if (this.findKeyPair(label)) throw new Error(`token "${this.config.tokenLabel}" already holds a key labelled "${label}"`);
    const id = randomBytes(16);
    this.session.generateKeyPair(
      graphene.KeyGenMechanism.EC,
      { keyType: graphene.KeyType.EC, token: true, private: false, verify: true, label, id, paramsEC: SECP256K1_EC_PARAMS },
      { keyType: graphene.KeyType.EC, token: true, private: true, sensitive: true, extractable: false, sign: true, derive: false, label, id },
    );
    return this.findKeyPair(label)!;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.session.close();
    } catch {
      // The HSM ended it already.
    } finally {
      release(this.config.library);
    }
  }
}
