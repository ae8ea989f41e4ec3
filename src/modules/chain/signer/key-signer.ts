import type { Address, Hex, Signature } from 'viem';
import { privateKeyToAddress, sign } from 'viem/accounts';
import type { AgentKey } from '../../../config/chains';
import type { AgentSigner } from './agent-signer';

/** The agent key as bytes in this process (from a variable or a file): development, tests, and operators without an HSM. */
export class KeySigner implements AgentSigner {
  readonly address: Address;

  constructor(private readonly key: AgentKey) {
    this.address = privateKeyToAddress(key.reveal());
  }

  signHash(hash: Hex): Promise<Signature> {
    return sign({ hash, privateKey: this.key.reveal() });
  }

  async close(): Promise<void> {}
}
