import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { badRequest, conflict } from '../../common/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import type { ServiceContext } from '../../access/service-context';
import { chainId, evmAddress, required } from '../../common/validate';
import type { InvestorService } from './investor.service';
import { InvestorWallet, WalletStatus } from './investor.entity';
import { noWalletInUse, walletAlreadyInUse } from './investor.errors';
import type { WalletOnChain } from './wallet-onchain';
import { refuseTakenAddress } from './wallet-custody';
import type { WalletRecoveryEffect } from './wallet-recovery-effect';
import { fromUnits } from '../../common/units';
import { requireDuty } from '../../access/duties';
import { currentPrincipal } from '../../common/request-scope';

/**
 * The wallet an investor uses on a chain: the one not removed from the whitelist (a partial
 * unique index allows at most one). Orders deliver to it and holdings report it.
 */
export function walletInUse(em: EntityManager, investorId: string, chainId: string): Promise<InvestorWallet | null> {
  return em.findOne(InvestorWallet, { investor: investorId, chainId, status: { $ne: WalletStatus.removed } });
}

/** `walletInUse`'s condition in SQL, for statements that read wallets with other records (placement). */
export const WALLET_IN_USE_SQL = (alias: string) => `${alias}.status <> '${WalletStatus.removed}'`;

/**
 * An investor's wallets. A wallet must be whitelisted (after identity verification) before it
 * can receive tokens; at most one wallet per chain is in use (pending or whitelisted — a partial
 * unique index holds it); a compromised wallet is removed from the whitelist and kept for the
 * record, which frees the chain for a new wallet.
 */
export class InvestorWalletService {
  constructor(
    private readonly investors: InvestorService,
    private readonly clock: Clock,
    /** The whitelist on chain, for chains the gateway writes to; elsewhere the whitelist is this record. */
    private readonly onChain: WalletOnChain | null = null,
  ) {}

  private writesOnChain(chain: string): boolean {
    return !!this.onChain?.writes(chain);
  }

  async add(
    ctx: ServiceContext,
    input: { investorId?: string | null; chainId?: string | null; address?: string | null; whitelisted?: boolean | null },
  ): Promise<InvestorWallet> {
    const chain = chainId(input.chainId);
    const address = evmAddress(input.address, 'address');
    const investor = await this.investors.get(ctx, input.investorId);
    if (await walletInUse(ctx.em, investor.id, chain)) throw walletAlreadyInUse(investor.id, chain);
    // The custody rule: an address is one holder's wallet (docs/custody.md).
    await refuseTakenAddress(ctx.em, investor.id, address, 'address');
    const onChain = this.writesOnChain(chain);
    // Whitelisting on chain the wallet one adds is one principal's two steps: refused before anything is written.
    if (onChain && input.whitelisted === true) requireDuty('walletWhitelisting', [currentPrincipal()]);
    const whitelisted = input.whitelisted === true && !onChain;
    if (onChain && input.whitelisted === true) await this.onChain!.prepare(chain);
    const wallet = ctx.em.create(InvestorWallet, {
      investor,
      chainId: chain,
      address,
      status: whitelisted ? WalletStatus.whitelisted : WalletStatus.pending,
      whitelistedAt: whitelisted ? this.clock.now() : undefined,
    });
    // A concurrent add on the same chain fails on the partial unique index: the same 409. One of
    // another holder with the same address fails on the address's claim: the error table's 409.
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException && (err as { constraint?: string }).constraint === 'investor_wallet_in_use_unique'
        ? walletAlreadyInUse(investor.id, chain)
        : err;
    });
    if (onChain && input.whitelisted === true) {
      await this.onChain!.whitelist(ctx.em, wallet);
      await ctx.em.flush();
    }
    return wallet;
  }

  /** Put the investor's wallet in use on a chain on the whitelist. Whitelisting twice is harmless. */
  async whitelist(ctx: ServiceContext, input: { investorId?: string | null; chainId?: string | null }): Promise<InvestorWallet> {
    const wallet = await this.inUse(ctx, input);
    await refuseTakenAddress(ctx.em, wallet.investor.id, wallet.address, 'address');
    if (this.writesOnChain(wallet.chainId)) {
      // On chain: `pending` until the identity registration is confirmed (src/modules/investor/wallet-onchain.ts).
      if (wallet.status === WalletStatus.pending && !(await this.onChain!.whitelisting(ctx.em, wallet))) {
        await this.onChain!.prepare(wallet.chainId);
        await ctx.em.transactional(async (em) => {
          await this.onChain!.whitelist(em, wallet);
          await em.flush();
        });
      }
      return wallet;
    }
    if (wallet.status !== WalletStatus.whitelisted) {
      wallet.status = WalletStatus.whitelisted;
      wallet.whitelistedAt = this.clock.now();
      await ctx.em.flush();
    }
    return wallet;
  }

  /** Remove a (compromised) wallet from the whitelist: status `removed`, with the reason and time. */
  async remove(ctx: ServiceContext, input: { investorId?: string | null; chainId?: string | null; reason?: string | null }): Promise<InvestorWallet> {
    const reason = required(input.reason, 'reason').trim();
    const wallet = await this.inUse(ctx, input);
    // The custody rule: a freeze names the investor's own wallet, never another holder's too.
    await refuseTakenAddress(ctx.em, wallet.investor.id, wallet.address, 'address');
    wallet.status = WalletStatus.removed;
    wallet.removedAt = this.clock.now();
    wallet.removalReason = reason;
    if (this.writesOnChain(wallet.chainId) && wallet.onchainIdentity)
      this.onChain!.remove(ctx.em, wallet, await this.onChain!.tokensOn(ctx.em, wallet.chainId));
    await ctx.em.flush();
    return wallet;
  }

  /**
   * What recovering the investor's wallet in use on a chain to `newAddress` would do, computed from
   * the world now: the function that binds a recovery request's effect and, at approval, recomputes
   * it to compare (src/modules/approval/approval-effect.ts). Refuses what the recovery would refuse:
   * no wallet in use, a chain the gateway does not write to, a new address of another holder or the
   * lost one's own, a lost wallet holding no tokens (read on chain: a 503 while the chain is away).
   * `lock`: inside the approver's transaction, the lost wallet's row is locked until it commits.
   */
  async recoveryEffect(
    ctx: ServiceContext,
    input: { investorId?: string | null; chainId?: string | null; newAddress?: string | null },
    lock = false,
  ): Promise<WalletRecoveryEffect> {
    ctx.access.requireOps();
    const address = evmAddress(input.newAddress, 'newAddress');
    const found = await this.inUse(ctx, input);
    const lost = lock ? await ctx.em.findOneOrFail(InvestorWallet, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true }) : found;
    if (lost.status === WalletStatus.removed) throw noWalletInUse(lost.investor.id, lost.chainId);
    // The custody rule: the new address is not a wallet of anyone else.
    await refuseTakenAddress(ctx.em, lost.investor.id, address, 'newAddress');
    if (!this.writesOnChain(lost.chainId) || !lost.onchainIdentity)
      throw conflict(`wallet ${lost.address} is not on a chain the gateway writes to: remove it and add the new one`);
    if (lost.address.toLowerCase() === address.toLowerCase()) throw badRequest('newAddress must differ from the lost wallet');
    // A chain read: recoveryAddress refuses a wallet without tokens.
    await this.onChain!.reachable(lost.chainId);
    const held = await this.onChain!.holdingTokens(ctx.em, lost.chainId, lost.address);
    if (!held.length) throw conflict(`wallet ${lost.address} holds no tokens to recover: remove it and add the new one`);
    return {
      kind: 'wallet_recovery',
      version: 1,
      investorId: lost.investor.id,
      chainId: lost.chainId,
      lostWalletId: String(lost.id),
      lostWallet: lost.address.toLowerCase(),
      newWallet: address,
      identity: lost.onchainIdentity.toLowerCase(),
      tokens: held
        .map(({ token, units }) => ({
          tokenAddress: token.contractAddress.toLowerCase(),
          shareClassId: token.shareClass.id,
          decimals: token.decimals,
          units: units.toString(),
          quantity: fromUnits(units, token.decimals),
        }))
        .sort((a, b) => a.tokenAddress.localeCompare(b.tokenAddress)),
    };
  }

  /**
   * Ops: the investor lost the key of its wallet; its tokens go to the new wallet with T-REX's
   * `recoveryAddress` (src/modules/investor/wallet-recovery.ts), exactly as `effect` — bound at the
   * request, checked against the world by the approval in this transaction — says: that lost wallet,
   * that new address, those tokens and units. Nothing is looked up again: the lost wallet is the
   * bound row, locked, and must still be in use at the bound address.
   * The lost wallet is `removed` at once (reason: `lost: recovered to …`); the new one, with the
   * same identity, reads `pending` until the recovery is confirmed, then `whitelisted`. The
   * register does not move: holdings are the investor's, and lots keep their dates.
   */
  async recover(ctx: ServiceContext, effect: WalletRecoveryEffect, reason: string): Promise<InvestorWallet> {
    ctx.access.requireOps();
    return ctx.em.transactional(async (em) => {
      const locked = await em.findOneOrFail(InvestorWallet, { id: effect.lostWalletId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (locked.status === WalletStatus.removed) throw noWalletInUse(locked.investor.id, locked.chainId);
      if (locked.address.toLowerCase() !== effect.lostWallet)
        throw conflict(`the lost wallet changed from ${effect.lostWallet} to ${locked.address} since the request`);
      await refuseTakenAddress(em, locked.investor.id, effect.newWallet, 'newAddress');
      locked.status = WalletStatus.removed;
      locked.removedAt = this.clock.now();
      locked.removalReason = `lost: recovered to ${effect.newWallet} (${reason})`;
      await em.flush();
      const fresh = em.create(InvestorWallet, {
        investor: locked.investor,
        chainId: locked.chainId,
        address: effect.newWallet,
        status: WalletStatus.pending,
        onchainIdentity: locked.onchainIdentity,
        recoveredFrom: String(locked.id),
        recoveryTokens: effect.tokens.map((t) => ({ tokenAddress: t.tokenAddress, units: t.units })),
      });
      await em.flush();
      this.onChain!.recover(em, fresh);
      await em.flush();
      return fresh;
    });
  }

  private async inUse(ctx: ServiceContext, input: { investorId?: string | null; chainId?: string | null }): Promise<InvestorWallet> {
    const chain = chainId(input.chainId);
    const investor = await this.investors.get(ctx, input.investorId);
    const wallet = await walletInUse(ctx.em, investor.id, chain);
    if (!wallet) throw noWalletInUse(investor.id, chain);
    return wallet;
  }
}
