import { decodeEventLog, encodeAbiParameters, encodeFunctionData, keccak256, type Hex } from 'viem';
import type { LedgerCall, LedgerLog, TokenTransfer } from '../../ledger/token-ledger';
import { IDENTITY_ABI, IDENTITY_REGISTRY_ABI, MANAGEMENT_KEY, ECDSA_KEY_TYPE, TOKEN_ABI } from './contracts';

const hex = (a: string) => a as Hex;
const wallets = (rows: { wallet: string }[]) => rows.map((r) => hex(r.wallet));
const units = (rows: { units: bigint }[]) => rows.map((r) => r.units);

/** The contract a call of the token ledger (src/ledger/token-ledger.ts) is sent to, and its calldata. */
export function encodeCall(call: LedgerCall): { to: string; data: Hex } {
  switch (call.op) {
    case 'mint':
    case 'burn':
      return { to: call.token, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: call.op, args: [hex(call.wallet), call.units] }) };
    case 'batchMint':
    case 'batchBurn':
      return { to: call.token, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: call.op, args: [wallets(call.rows), units(call.rows)] }) };
    case 'freezePartial':
    case 'unfreezePartial':
      return {
        to: call.token,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: `${call.op}Tokens`, args: [hex(call.wallet), call.units] }),
      };
    case 'batchFreezePartial':
    case 'batchUnfreezePartial':
      return {
        to: call.token,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: `${call.op}Tokens`, args: [wallets(call.rows), units(call.rows)] }),
      };
    case 'setFrozen':
      return { to: call.token, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'setAddressFrozen', args: [hex(call.wallet), call.frozen] }) };
    case 'forcedTransfer':
      return {
        to: call.token,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'forcedTransfer', args: [hex(call.from), hex(call.to), call.units] }),
      };
    case 'recoverWallet':
      return {
        to: call.token,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'recoveryAddress', args: [hex(call.lost), hex(call.fresh), hex(call.identity)] }),
      };
    case 'registerIdentity':
      return {
        to: call.registry,
        data: encodeFunctionData({
          abi: IDENTITY_REGISTRY_ABI,
          functionName: 'registerIdentity',
          args: [hex(call.wallet), hex(call.identity), call.country],
        }),
      };
    case 'updateCountry':
      return {
        to: call.registry,
        data: encodeFunctionData({ abi: IDENTITY_REGISTRY_ABI, functionName: 'updateCountry', args: [hex(call.wallet), call.country] }),
      };
    case 'deleteIdentity':
      return { to: call.registry, data: encodeFunctionData({ abi: IDENTITY_REGISTRY_ABI, functionName: 'deleteIdentity', args: [hex(call.wallet)] }) };
    case 'addManagementKey':
      // ERC-734 keys are the keccak of the address; a MANAGEMENT key of type ECDSA.
      return {
        to: call.identity,
        data: encodeFunctionData({
          abi: IDENTITY_ABI,
          functionName: 'addKey',
          args: [keccak256(encodeAbiParameters([{ type: 'address' }], [hex(call.wallet)])), MANAGEMENT_KEY, ECDSA_KEY_TYPE],
        }),
      };
  }
}

/** The `Transfer` events of `token` among a receipt's logs, addresses lower-cased. */
export function transfersIn(logs: readonly LedgerLog[], token: string): TokenTransfer[] {
  const out: TokenTransfer[] = [];
  for (const l of logs) {
    if (l.address.toLowerCase() !== token.toLowerCase() || l.logIndex === null) continue;
    try {
      const e = decodeEventLog({ abi: TOKEN_ABI, data: hex(l.data), topics: l.topics as [Hex, ...Hex[]] });
      if (e.eventName === 'Transfer') out.push({ logIndex: l.logIndex, from: e.args.from.toLowerCase(), to: e.args.to.toLowerCase(), value: e.args.value });
    } catch {
      // not an event of the token's ABI
    }
  }
  return out;
}
