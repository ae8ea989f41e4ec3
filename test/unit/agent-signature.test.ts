import { hexToBytes, keccak256, numberToHex, toHex, type Hex } from 'viem';
import { privateKeyToAccount, privateKeyToAddress, sign } from 'viem/accounts';
import { secp256k1 } from '@noble/curves/secp256k1';
import { AgentKey } from '../../src/config/chains';
import { agentAccount } from '../../src/modules/chain/signer/agent-signer';
import { addressOfEcPoint, ethereumSignature, SECP256K1_N } from '../../src/modules/chain/signer/ecdsa';
import { KeySigner } from '../../src/modules/chain/signer/key-signer';

const KEY = '0x8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f' as Hex;
const ADDRESS = privateKeyToAddress(KEY);
const rsOf = (r: bigint, s: bigint) => hexToBytes(`${numberToHex(r, { size: 32 })}${numberToHex(s, { size: 32 }).slice(2)}` as Hex);

describe("An HSM signature made Ethereum's: low s and the recovery id (signer/ecdsa.ts)", () => {
  it('a raw r‖s with either s gives the one low-s signature, with the recovery id that recovers the signer; both recovery ids and both halves of s occur', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const hash = keccak256(toHex(`digest ${i}`));
      // What the key signs (RFC 6979, low s): the answer expected whichever s the HSM returns.
      const expected = await sign({ hash, privateKey: KEY });
      const r = BigInt(expected.r);
      const low = BigInt(expected.s);
      expect(low <= SECP256K1_N / 2n).toBe(true);
      for (const [half, s] of [
        ['low', low],
        ['high', SECP256K1_N - low],
      ] as const) {
        const got = await ethereumSignature(hash, rsOf(r, s), ADDRESS);
        expect(got).toEqual({ r: expected.r, s: expected.s, yParity: expected.yParity, v: BigInt(27 + expected.yParity!) });
        seen.add(`${half} s, yParity ${expected.yParity}`);
      }
    }
    expect([...seen].sort()).toEqual(['high s, yParity 0', 'high s, yParity 1', 'low s, yParity 0', 'low s, yParity 1']);
  });

  it('a signature of another key, a wrong length or an r or s out of range is refused', async () => {
    const hash = keccak256(toHex('digest'));
    const other = await sign({ hash, privateKey: `0x${'11'.repeat(32)}` });
    await expect(ethereumSignature(hash, rsOf(BigInt(other.r), BigInt(other.s)), ADDRESS)).rejects.toThrow(
      `the HSM's signature does not recover to the agent address ${ADDRESS}`,
    );
    await expect(ethereumSignature(hash, new Uint8Array(72), ADDRESS)).rejects.toThrow(
      'an ECDSA signature of secp256k1 is 64 bytes (r‖s), the HSM returned 72',
    );
    await expect(ethereumSignature(hash, rsOf(0n, 1n), ADDRESS)).rejects.toThrow('the HSM returned an ECDSA signature out of range');
    await expect(ethereumSignature(hash, rsOf(1n, SECP256K1_N), ADDRESS)).rejects.toThrow('the HSM returned an ECDSA signature out of range');
  });

  it('the address comes from CKA_EC_POINT, DER-wrapped (04 41 04…) or bare; a compressed point is refused', () => {
    const point = secp256k1.getPublicKey(KEY.slice(2), false);
    expect(addressOfEcPoint(point)).toBe(ADDRESS);
    expect(addressOfEcPoint(new Uint8Array([0x04, 0x41, ...point]))).toBe(ADDRESS);
    expect(() => addressOfEcPoint(secp256k1.getPublicKey(KEY.slice(2), true))).toThrow(
      'the public key is not an uncompressed secp256k1 point (CKA_EC_POINT of 33 bytes)',
    );
  });
});

describe('The agent account over a signer (signer/agent-signer.ts)', () => {
  it("with the key held by the process, it signs transactions, messages and typed data byte for byte as viem's private-key account", async () => {
    const ours = agentAccount(new KeySigner(new AgentKey(KEY)));
    const viems = privateKeyToAccount(KEY);
    expect(ours.address).toBe(viems.address);
    const tx = {
      chainId: 31337,
      type: 'eip1559',
      nonce: 7,
      to: ADDRESS,
      data: '0xa9059cbb',
      gas: 90_000n,
      maxFeePerGas: 3_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    } as const;
    expect(await ours.signTransaction(tx)).toBe(await viems.signTransaction(tx));
    expect(await ours.signMessage({ message: { raw: keccak256('0x01') } })).toBe(await viems.signMessage({ message: { raw: keccak256('0x01') } }));
    const typed = { domain: { name: 'T', chainId: 1 }, types: { M: [{ name: 'a', type: 'uint256' }] }, primaryType: 'M', message: { a: 1n } } as const;
    expect(await ours.signTypedData(typed)).toBe(await viems.signTypedData(typed));
  });
});
