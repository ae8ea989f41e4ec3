/**
 * What a wallet recovery will do, bound when it is requested (src/modules/approval/approval-effect.ts):
 * the investor's lost wallet (the one in use on the chain), the new wallet, the ONCHAINID the new
 * wallet becomes a key of, and every token the lost wallet holds with the exact units that move.
 * `InvestorWalletService.recoveryEffect` computes it from the world, the same function at request
 * time (to bind it) and at approval (to compare); the recovery then runs from the bound record.
 */
export interface WalletRecoveryEffect {
  kind: 'wallet_recovery';
  version: 1;
  investorId: string;
  chainId: string;
  /** The wallet row in use at request time, and its address (lower case). */
  lostWalletId: string;
  lostWallet: string;
  /** As the request gave it. */
  newWallet: string;
  /** The investor's ONCHAINID on the chain. */
  identity: string;
  /** What the lost wallet holds, token by token (address order): all of it moves. */
  tokens: RecoveredToken[];
}

export interface RecoveredToken {
  tokenAddress: string;
  shareClassId: string;
  decimals: number;
  /** Token units (an integer, as a decimal string). */
  units: string;
  /** The same, in tokens (decimal string). */
  quantity: string;
}
