import { bytesToHex, isAddressEqual, numberToHex, recoverAddress, type Address, type Hex, type Signature } from 'viem';
import { publicKeyToAddress } from 'viem/accounts';

/** The order n of secp256k1's group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;

/**
 * An Ethereum signature from a raw ECDSA one (CKM_ECDSA's 64-byte r‖s over the 32-byte hash).
 * An HSM returns either of the two valid s for its r; Ethereum accepts only the low one
 * (EIP-2: s ≤ n/2), so a high s becomes n − s. The HSM gives no recovery id: the one of 0 and 1
 * whose recovered address is the signer's is it (flipping s flips it, so it is found after).
 */
export async function ethereumSignature(hash: Hex, rs: Uint8Array, signer: Address): Promise<Signature> {
  if (rs.length !== 64) throw new Error(`an ECDSA signature of secp256k1 is 64 bytes (r‖s), the HSM returned ${rs.length}`);
  const r = BigInt(bytesToHex(rs.subarray(0, 32)));
  let s = BigInt(bytesToHex(rs.subarray(32)));
  if (r === 0n || r >= SECP256K1_N || s === 0n || s >= SECP256K1_N) throw new Error('the HSM returned an ECDSA signature out of range');
  if (s > HALF_N) s = SECP256K1_N - s;
  for (const yParity of [0, 1]) {
    const signature: Signature = { r: numberToHex(r, { size: 32 }), s: numberToHex(s, { size: 32 }), yParity, v: BigInt(27 + yParity) };
    if (isAddressEqual(await recoverAddress({ hash, signature }), signer)) return signature;
  }
  throw new Error(`the HSM's signature does not recover to the agent address ${signer}: is the key labelled right, and is it on secp256k1?`);
}

/**
 * The address of an EC public key as PKCS#11 gives it (CKA_EC_POINT): the uncompressed point
 * 04‖x‖y, DER-wrapped in an OCTET STRING as the standard says (04 41 04…), or bare as some HSMs
 * give it. The address is the last 20 bytes of keccak256(x‖y).
 */
export function addressOfEcPoint(point: Uint8Array): Address {
  let raw = point;
  if (raw.length === 67 && raw[0] === 0x04 && raw[1] === 0x41) raw = raw.subarray(2);
  if (raw.length !== 65 || raw[0] !== 0x04) throw new Error(`the public key is not an uncompressed secp256k1 point (CKA_EC_POINT of ${point.length} bytes)`);
  return publicKeyToAddress(bytesToHex(raw));
}
