import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { InvestorWallet, WalletStatus } from './investor.entity';
import type { Token } from '../token';
import { isTakenAddress, takenAddress } from './wallet-custody';
import type { LedgerCall, LedgerIntent, LedgerOutcome, TokenLedger } from '../../ledger/token-ledger';

/** The purposes of a recovery's intents, in their order (the `wallet.` family: WalletOnChain routes them here). */
export const RECOVERY_PURPOSES = ['wallet.recoveryKey', 'wallet.recover', 'wallet.unfreeze'] as const;

/**
 * A lost wallet's tokens recovered to the investor's new wallet with T-REX's `recoveryAddress`,
 * as steps of intents each started by the previous one's outcome (the sender call-checks an
 * intent before the one it depends on is mined, so they cannot be queued at once):
 * 1. `wallet.recoveryKey`: the new wallet added as a MANAGEMENT key of the investor's ONCHAINID
 *    (custodial: the agent key manages it) — `recoveryAddress` refuses otherwise;
 * 2. `wallet.recover`: `recoveryAddress(lost, new, identity)` on the first token the lost wallet
 *    holds (it registers the new wallet, moves the tokens, carries a freeze over and deletes the
 *    lost wallet from the registry the gateway's tokens share), `forcedTransfer` on any other;
 * 3. `wallet.unfreeze`: the new wallet unfrozen where it came out frozen (a lost wallet is
 *    usually frozen first) — then it reads `whitelisted`.
 * The register does not move: holdings are the investor's, not a wallet's, so lots keep their
 * dates, and the follower does not follow the gateway's own transactions.
 */
export class WalletRecovery {
  constructor(
    private readonly chain: TokenLedger,
    private readonly clock: Clock,
  ) {}

  /** The tokens of the chain of which `lost` holds some, with how many units (read now). */
  async holdingTokens(tokens: Token[], lost: string): Promise<{ token: Token; units: bigint }[]> {
    const held: { token: Token; units: bigint }[] = [];
    for (const token of tokens) {
      const units = await this.balanceOf(token, lost);
      if (units > 0n) held.push({ token, units });
    }
    return held;
  }

  /** Starts recovering `lost` into `fresh` (flushed, `pending`, with the investor's identity). */
  start(em: EntityManager, fresh: InvestorWallet): void {
    this.chain.intend(
      em,
      { chainId: fresh.chainId, purpose: 'wallet.recoveryKey', walletId: fresh.id },
      { op: 'addManagementKey', identity: fresh.onchainIdentity!, wallet: fresh.address },
    );
  }

  /** The next step when a recovery's intent reached its depth. */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome, fresh: InvestorWallet, tokens: Token[]): Promise<void> {
    if (!outcome.ok) {
      fresh.chainError = `${tx.purpose}: ${outcome.reason}`;
      return;
    }
    if (tx.purpose === 'wallet.recoveryKey') return this.recover(em, fresh, tokens);
    if (await this.open(em, fresh, tx)) return;
    if (tx.purpose === 'wallet.recover') return this.unfreeze(em, fresh, tokens);
    fresh.status = WalletStatus.whitelisted;
    fresh.whitelistedAt = this.clock.now();
  }

  private async recover(em: EntityManager, fresh: InvestorWallet, tokens: Token[]): Promise<void> {
    const lost = await em.findOneOrFail(InvestorWallet, { id: fresh.recoveredFrom! });
    // The custody rule again where the tokens move: the new address is nobody else's wallet.
    if (await isTakenAddress(em, fresh.investor.id, fresh.address)) {
      fresh.chainError = `wallet.recover: ${takenAddress('newAddress')}`;
      return;
    }
    // The tokens and units the approval bound (src/modules/approval/approval-effect.ts), not what
    // the lost wallet holds now; a recovery approved before effects were bound reads them now.
    const held = fresh.recoveryTokens
      ? fresh.recoveryTokens.flatMap((b) => {
          const token = tokens.find((t) => t.contractAddress.toLowerCase() === b.tokenAddress);
          return token ? [{ token, units: BigInt(b.units) }] : [];
        })
      : await this.holdingTokens(tokens, lost.address);
    if (fresh.recoveryTokens && held.length !== fresh.recoveryTokens.length) {
      fresh.chainError = `wallet.recover: a token the approval bound is no longer a token of chain ${fresh.chainId}`;
      return;
    }
    if (!held.length) {
      fresh.chainError = `wallet.recover: wallet ${lost.address} holds no tokens left to recover`;
      return;
    }
    const [first, ...rest] = held;
    this.step(em, fresh, {
      op: 'recoverWallet',
      token: first.token.contractAddress,
      lost: lost.address,
      fresh: fresh.address,
      identity: fresh.onchainIdentity!,
    });
    for (const t of rest) {
      // The registry is shared: the new wallet is registered by the first recovery; the rest is a transfer.
      this.step(em, fresh, { op: 'forcedTransfer', token: t.token.contractAddress, from: lost.address, to: fresh.address, units: t.units });
    }
  }

  private async unfreeze(em: EntityManager, fresh: InvestorWallet, tokens: Token[]): Promise<void> {
    this.chain.requireWritable(fresh.chainId);
    let any = false;
    for (const t of tokens) {
      if (!(await this.chain.isFrozen(fresh.chainId, t.contractAddress, fresh.address))) continue;
      any = true;
      this.chain.intend(
        em,
        { chainId: fresh.chainId, purpose: 'wallet.unfreeze', walletId: fresh.id },
        { op: 'setFrozen', token: t.contractAddress, wallet: fresh.address, frozen: false },
      );
    }
    if (!any) {
      fresh.status = WalletStatus.whitelisted;
      fresh.whitelistedAt = this.clock.now();
    }
  }

  private step(em: EntityManager, fresh: InvestorWallet, call: LedgerCall): void {
    this.chain.intend(em, { chainId: fresh.chainId, purpose: 'wallet.recover', walletId: fresh.id }, call);
  }

  /** Whether another intent of the same step is still open (a step may have one intent per token). */
  private async open(em: EntityManager, fresh: InvestorWallet, tx: LedgerIntent): Promise<boolean> {
    return (await this.chain.openIntents(em, fresh.id, [tx.purpose], tx.id)) > 0;
  }

  private async balanceOf(token: Token, wallet: string): Promise<bigint> {
    this.chain.requireWritable(token.chainId);
    return this.chain.balanceOf(token.chainId, token.contractAddress, wallet);
  }
}
