import type { PublicClient } from 'viem';

/**
 * The block that closes a day: the last block whose timestamp is before `closesAt` (the next
 * day's start in the dealing zone), found by binary search over block timestamps read from the
 * chain (viem `getBlock`; about log2(head) reads), not from the follower's records, which hold
 * only the blocks with a movement. Null when the chain had no block yet.
 */
export async function closingBlock(
  client: Pick<PublicClient, 'getBlock' | 'getBlockNumber'>,
  closesAt: Date,
): Promise<{ number: bigint; timestamp: Date } | null> {
  const limit = BigInt(Math.floor((closesAt.getTime() - 1) / 1000));
  const at = async (n: bigint) => (await client.getBlock({ blockNumber: n })).timestamp;
  let hi = await client.getBlockNumber({ cacheTime: 0 });
  const headTime = await at(hi);
  if (headTime <= limit) return { number: hi, timestamp: new Date(Number(headTime) * 1000) };
  let lo = 0n;
  if ((await at(lo)) > limit) return null;
  // Invariant: block lo closes within the day, block hi after it.
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if ((await at(mid)) <= limit) lo = mid;
    else hi = mid;
  }
  return { number: lo, timestamp: new Date(Number(await at(lo)) * 1000) };
}
