import { hashMessage, hashTypedData, keccak256, serializeSignature, serializeTransaction, type Address, type Hex, type Signature } from 'viem';
import { toAccount, type LocalAccount } from 'viem/accounts';

/**
 * What the chain module asks of whoever holds the agent key: its address, and a secp256k1
 * signature of a 32-byte digest (low s, with its recovery id). Nothing else crosses the seam: the
 * key may be bytes in this process (key-signer.ts) or an object in an HSM (pkcs11-signer.ts).
 */
export interface AgentSigner {
  readonly address: Address;
  signHash(hash: Hex): Promise<Signature>;
  /** Ends the signer's sessions (the gateway's close). */
  close(): Promise<void>;
}

/**
 * The viem account of a signer: transactions, messages and typed data are hashed here and only
 * the digest goes to the signer. A transaction is serialised with its signature exactly as
 * viem's own private-key account does, so the sender's stored raw bytes and hash do not depend on
 * where the key lives.
 */
export function agentAccount(signer: AgentSigner): LocalAccount {
  return toAccount({
    address: signer.address,
    async sign({ hash }) {
      return serializeSignature(await signer.signHash(hash));
    },
    async signMessage({ message }) {
      return serializeSignature(await signer.signHash(hashMessage(message)));
    },
    async signTypedData(typedData) {
      return serializeSignature(await signer.signHash(hashTypedData(typedData)));
    },
    async signTransaction(transaction, { serializer = serializeTransaction } = {}) {
      // A blob transaction is signed without its sidecars (EIP-4844 network wrapper), as viem does.
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false as const } : transaction;
      const signature = await signer.signHash(keccak256(await serializer(signable)));
      return serializer(transaction, signature);
    },
  });
}
