import { BaseError, decodeErrorResult, type Abi, type Hex, type TransactionReceipt } from 'viem';
import type { ChainTransaction } from './chain-transaction.entity';
import type { ChainHandle } from './chains';

/** What a failed call tells: the contract refused (with its reason), or the chain was not reached. */
export type CallFailure = { reverted: true; reason: string } | { reverted: false; message: string };

const REVERT_DATA = /^0x[0-9a-fA-F]*$/;

/**
 * Reads a viem error: a revert carries the contract's reason (`Error(string)` as T-REX 4.1.6
 * reverts, a custom error of the given ABIs by name, or none); anything else (HTTP, timeout) is
 * "not reached", and the intent waits for the next pass.
 */
export function readCallFailure(err: unknown, abis: Abi[] = []): CallFailure {
  // Only viem's short messages are kept: its full messages name the RPC URL, which may carry a key.
  if (!(err instanceof BaseError)) return { reverted: false, message: 'the node could not be reached' };
  let data: Hex | undefined;
  let reverted = false;
  let detail: string | undefined;
  err.walk((e) => {
    const name = (e as Error).name;
    if (
      name === 'ExecutionRevertedError' ||
      name === 'RawContractError' ||
      name === 'ContractFunctionRevertedError' ||
      (name === 'CallExecutionError' && /revert/i.test((e as BaseError).details ?? ''))
    ) {
      reverted = true;
    }
    const d = (e as { data?: unknown }).data;
    if (typeof d === 'string' && REVERT_DATA.test(d) && d.length >= 10) data = d as Hex;
    if (typeof d === 'object' && d && typeof (d as { data?: unknown }).data === 'string') data = (d as { data: Hex }).data;
    const details = (e as BaseError).details;
    if (details && /revert/i.test(details)) {
      reverted = true;
      detail = details;
    }
    return false;
  });
  if (!reverted) return { reverted: false, message: err.shortMessage || 'the node could not be reached' };
  if (data) {
    for (const abi of [[], ...abis]) {
      try {
        const decoded = decodeErrorResult({ abi, data });
        if (decoded.errorName === 'Error') return { reverted: true, reason: String(decoded.args?.[0]) };
        if (decoded.errorName === 'Panic') return { reverted: true, reason: `panic ${String(decoded.args?.[0])}` };
        return { reverted: true, reason: decoded.errorName };
      } catch {
        /* next ABI */
      }
    }
  }
  const m = /execution reverted:?\s*(.*)$/i.exec(detail ?? '');
  return { reverted: true, reason: m?.[1]?.trim() || 'reverted without a reason' };
}

/** Why a mined transaction reverted: out of gas (all its gas used), else its call replayed at the block before its own. */
export async function revertReasonOf(chain: ChainHandle, intent: ChainTransaction, receipt: TransactionReceipt, abis: Abi[]): Promise<string> {
  if (intent.gasLimit && receipt.gasUsed >= BigInt(intent.gasLimit)) return 'out of gas';
  try {
    await chain.client.call({
      account: chain.account!.address,
      to: (intent.toAddress ?? undefined) as Hex | undefined,
      data: intent.data as Hex,
      gas: BigInt(intent.gasLimit!),
      blockNumber: receipt.blockNumber - 1n,
    });
    // The call succeeds on the state before the block: what changed it is earlier in the same block.
    return 'reverted';
  } catch (err) {
    const failure = readCallFailure(err, abis);
    return failure.reverted ? failure.reason : 'reverted';
  }
}
