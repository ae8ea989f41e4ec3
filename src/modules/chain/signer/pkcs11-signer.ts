import type * as graphene from 'graphene-pk11';
import { hexToBytes, type Address, type Hex, type Signature } from 'viem';
import type { AgentSigner } from './agent-signer';
import { ethereumSignature } from './ecdsa';
import { describePkcs11Key, type Pkcs11SignerConfig } from '../../../config/pkcs11';
import { pkcs11Code, Pkcs11Token } from './pkcs11-token';

/** Answers after which the session is opened again once (the HSM restarted, a network HSM dropped it, a fail-over). */
const SESSION_LOST = new Set([
  'CKR_SESSION_HANDLE_INVALID',
  'CKR_SESSION_CLOSED',
  'CKR_USER_NOT_LOGGED_IN',
  'CKR_OBJECT_HANDLE_INVALID',
  'CKR_KEY_HANDLE_INVALID',
  'CKR_DEVICE_REMOVED',
  'CKR_DEVICE_ERROR',
  'CKR_TOKEN_NOT_PRESENT',
]);

/**
 * The agent key in an HSM, through PKCS#11: the token's session signs the 32-byte digest with
 * CKM_ECDSA (raw r‖s); ecdsa.ts makes it Ethereum's (low s, recovery id). The key's value is never
 * read: the process holds a handle to it, and its address from the public key.
 */
export class Pkcs11Signer implements AgentSigner {
  readonly address: Address;
  private readonly description: string;
  private token: Pkcs11Token;
  private key: graphene.PrivateKey;
  /** One operation at a time on the session: C_SignInit and C_Sign of two signatures must not interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly config: Pkcs11SignerConfig) {
    this.description = describePkcs11Key(config);
    const { token, key, address } = this.open();
    this.token = token;
    this.key = key;
    this.address = address;
  }

  signHash(hash: Hex): Promise<Signature> {
    const next = this.queue.then(() => this.signOnce(hash));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
    this.token.close();
  }

  private async signOnce(hash: Hex): Promise<Signature> {
    let rs: Buffer;
    try {
      rs = await this.ecdsa(hash);
    } catch (err) {
      if (!SESSION_LOST.has(pkcs11Code(err))) throw new Error(`the HSM refused to sign with ${this.description}: ${pkcs11Code(err)}`, { cause: err });
      this.reopen();
      rs = await this.ecdsa(hash);
    }
    return ethereumSignature(hash, rs, this.address);
  }

  private ecdsa(hash: Hex): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      try {
        this.token.session.createSign('ECDSA', this.key).once(Buffer.from(hexToBytes(hash)), (err, signature) => (err ? reject(err) : resolve(signature)));
      } catch (err) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- graphene's own throw, passed on as is: signOnce reads its PKCS#11 code
        reject(err);
      }
    });
  }

  private open(): { token: Pkcs11Token; key: graphene.PrivateKey; address: Address } {
    const token = Pkcs11Token.open(this.config);
    try {
      const pair = token.findKeyPair(this.config.keyLabel);
      if (!pair) throw new Error(`token "${this.config.tokenLabel}" holds no key labelled "${this.config.keyLabel}" (create it: npm run hsm-key)`);
      return { token, key: pair.privateKey, address: pair.address };
    } catch (err) {
      token.close();
      throw err;
    }
  }

  /** A new session; the label must still name the same key (same address), or nothing is signed. */
  private reopen(): void {
    this.token.close();
    const { token, key, address } = this.open();
    if (address !== this.address) {
      token.close();
      throw new Error(`${this.description} is now another key (${address}, was ${this.address}): refusing to sign`);
    }
    this.token = token;
    this.key = key;
  }
}
