import type { ChainConfig } from '../../../config/chains';
import type { AgentSigner } from './agent-signer';
import { KeySigner } from './key-signer';
import { Pkcs11Signer } from './pkcs11-signer';

/** The signer of a chain's agent key, as CHAINS names it; null for a read-only chain. Throws, naming the chain, when the HSM cannot be reached or holds no fitting key. */
export function openSigner(config: ChainConfig): AgentSigner | null {
  if (config.agentKey) return new KeySigner(config.agentKey);
  if (!config.pkcs11) return null;
  try {
    return new Pkcs11Signer(config.pkcs11);
  } catch (err) {
    throw new Error(`chain ${config.chainId}: ${(err as Error).message}`, { cause: err });
  }
}
