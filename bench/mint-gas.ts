import { toFunctionSelector, type Hex } from 'viem';

/*
 * Where a T-REX batchMint spends its gas, per row, read from the node's call trace (anvil's
 * `debug_traceTransaction` with the `callTracer`): `mint` asks the identity registry whether the
 * receiver is verified, asks the compliance whether the transfer may happen, mints, then tells
 * the compliance it was created. Each check is the outermost call frame of its function (proxy
 * dispatch and everything it calls included); the rest is the token's own work.
 */

interface Frame {
  type: string;
  to?: Hex;
  input: Hex;
  gasUsed: Hex;
  calls?: Frame[];
}

const CHECKS: Record<string, string> = {
  [toFunctionSelector('isVerified(address)')]: 'identity (isVerified)',
  [toFunctionSelector('canTransfer(address,address,uint256)')]: 'compliance.canTransfer',
  [toFunctionSelector('created(address,uint256)')]: 'compliance.created',
};

/** A compliance's call to one of its modules (`moduleCheck`, `moduleMintAction`). */
const MODULE_CALLS: Record<string, string> = {
  [toFunctionSelector('moduleCheck(address,address,uint256,address)')]: 'moduleCheck',
  [toFunctionSelector('moduleMintAction(address,uint256)')]: 'moduleMintAction',
};

/**
 * Gas per row of a batchMint of `rows` rows, by what spent it; with compliance modules bound, each
 * module's `moduleCheck` and `moduleMintAction` too (named by `moduleNames`, address → name).
 */
export async function mintGasPerRow(rpcUrl: string, hash: string, rows: number, moduleNames: Record<string, string> = {}): Promise<Record<string, number>> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] }),
  });
  const top = ((await res.json()) as { result: Frame }).result;
  const spent = new Map<string, number>();
  const modules = new Map<string, number>();
  const inModules = (f: Frame) => {
    const call = f.type !== 'DELEGATECALL' ? MODULE_CALLS[f.input.slice(0, 10)] : undefined;
    if (call) {
      const what = `  of which ${moduleNames[f.to?.toLowerCase() ?? ''] ?? f.to}.${call}`;
      modules.set(what, (modules.get(what) ?? 0) + Number(f.gasUsed));
    } else f.calls?.forEach(inModules);
  };
  const walk = (f: Frame) => {
    const check = f.type !== 'DELEGATECALL' ? CHECKS[f.input.slice(0, 10)] : undefined;
    if (check) {
      spent.set(check, (spent.get(check) ?? 0) + Number(f.gasUsed));
      f.calls?.forEach(inModules);
    } else f.calls?.forEach(walk);
  };
  top.calls?.forEach(walk);
  for (const [what, gas] of modules) spent.set(what, gas);
  const checks = [...spent.entries()].filter(([what]) => !what.startsWith(' ')).reduce((a, [, b]) => a + b, 0);
  const perRow: Record<string, number> = {};
  for (const [what, gas] of spent) perRow[what] = Math.round(gas / rows);
  perRow["the token's own (balance, supply, event, proxies, calldata, its share of the 21,000)"] = Math.round((Number(top.gasUsed) - checks) / rows);
  return perRow;
}
