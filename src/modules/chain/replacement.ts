import { keccak256, type Hex } from 'viem';
import type { ChainTransaction } from './chain-transaction.entity';
import type { ChainHandle } from './chains';

/** Fee bump of a replacement: nodes refuse less than +10%. */
const BUMP_NUM = 125n;
const BUMP_DEN = 100n;

export interface Replacement {
  raw: Hex;
  hash: Hex;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * A sent intent not mined in time, signed again at the same nonce with the same call and gas,
 * fees up by a quarter (at least the network's current ones): whichever of the two is mined, the
 * nonce is used once, so the intent's call happens at most once.
 */
export async function signReplacement(chain: ChainHandle, intent: ChainTransaction): Promise<Replacement> {
  const current = await chain.client.estimateFeesPerGas();
  const bump = (old: string | undefined, now: bigint) => {
    const raised = (BigInt(old ?? '0') * BUMP_NUM) / BUMP_DEN + 1n;
    return raised > now ? raised : now;
  };
  const maxPriorityFeePerGas = bump(intent.maxPriorityFeePerGas, current.maxPriorityFeePerGas);
  let maxFeePerGas = bump(intent.maxFeePerGas, current.maxFeePerGas);
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  const raw = await chain.account!.signTransaction({
    chainId: chain.chain.id,
    type: 'eip1559',
    nonce: Number(intent.nonce),
    to: (intent.toAddress ?? null) as Hex | null,
    data: intent.data as Hex,
    gas: BigInt(intent.gasLimit!),
    maxFeePerGas,
    maxPriorityFeePerGas,
  });
  return { raw, hash: keccak256(raw), maxFeePerGas, maxPriorityFeePerGas };
}
