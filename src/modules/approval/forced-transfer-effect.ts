/**
 * What a forced transfer will do, bound when it is requested (approval-effect.ts; computed by
 * `ForcedTransfers.effect`, forced-transfer.ts): on one token
 * (chain and contract), from the sender's wallet to the receiver's, that quantity and its units.
 */
export interface ForcedTransferEffect {
  kind: 'forced_transfer';
  version: 1;
  chainId: string;
  /** Lower case, as are the wallets. */
  tokenAddress: string;
  shareClassId: string;
  decimals: number;
  fromInvestorId: string;
  fromWallet: string;
  toInvestorId: string;
  toWallet: string;
  /** Tokens (decimal string), as the register counts them. */
  quantity: string;
  /** The same in token units (an integer, as a decimal string): what `forcedTransfer` is sent. */
  units: string;
}
