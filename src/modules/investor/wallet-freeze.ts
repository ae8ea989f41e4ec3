import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest, conflict, type DomainError, notFound } from '../../common/errors';
import { principalLabel } from '../../access/principal';
import type { ServiceContext } from '../../access/service-context';
import { chainId as validChainId, required } from '../../common/validate';
import type { LedgerIntent, LedgerOutcome, TokenLedger } from '../../ledger/token-ledger';
import { Token } from '../token';
import type { InvestorService } from './investor.service';
import { walletInUse } from './investor-wallet.service';
import { FREEZE_PURPOSE, UNFREEZE_PURPOSE, WalletFreeze, WalletFreezeStatus } from './wallet-freeze.entity';

/** The statuses in which the gateway holds a wallet frozen (all but `lifted`: a failed freeze still refuses, fail closed). */
const HELD = [WalletFreezeStatus.freezing, WalletFreezeStatus.frozen, WalletFreezeStatus.failed, WalletFreezeStatus.unfreezing];

/**
 * What an approved unfreeze will do, bound when it is requested (src/modules/approval/approval-effect.ts):
 * that freeze lifted, `setAddressFrozen(wallet, false)` on that token.
 */
export interface WalletUnfreezeEffect {
  kind: 'wallet_unfreeze';
  version: 1;
  freezeId: string;
  investorId: string;
  shareClassId: string;
  chainId: string;
  tokenAddress: string;
  wallet: string;
}

/**
 * Freezing an investor's wallet on a share class's token (T-REX `setAddressFrozen`), as segregation
 * of duties has it (docs/approvals.md#freezing-a-wallet): freezing is protective, so one operator
 * freezes at once with a reason; unfreezing gives the wallet its tokens back, so it is a four-eyes
 * request (`wallet_unfreeze`, src/modules/approval) whose approval calls `lift`. From the freeze on,
 * the gateway refuses the wallet's redemptions and transfers of that class (`walletFrozenRefusal`),
 * whatever the chain answers: the row is the gateway's word, the intent the chain's.
 */
export class WalletFreezes {
  constructor(
    private readonly chain: TokenLedger | null,
    private readonly clock: Clock,
    private readonly investors: InvestorService,
  ) {}

  /** Freezes the investor's wallet in use on the chain on the class's token (the wallet removed from the whitelist is frozen on every token already). */
  async freeze(ctx: ServiceContext, input: { investorId?: unknown; chainId?: unknown; shareClassId?: unknown; reason?: unknown }): Promise<WalletFreeze> {
    ctx.access.requireRole('operator');
    const reason = required(input.reason, 'reason').trim();
    const shareClassId = required(input.shareClassId, 'shareClassId').trim();
    const chain = validChainId(input.chainId);
    const investor = await this.investors.get(ctx, input.investorId);
    const wallet = await walletInUse(ctx.em, investor.id, chain);
    if (!wallet) throw badRequest(`investor ${investor.id} has no wallet in use on chain ${chain}`);
    if (!this.chain?.writes(wallet.chainId)) throw badRequest(`the gateway does not write to chain ${wallet.chainId}`);
    const token = await ctx.em.findOne(Token, { shareClass: shareClassId, chainId: wallet.chainId }, { orderBy: { isPrimary: 'desc' } });
    if (!token) throw badRequest(`share class ${shareClassId} has no token on chain ${wallet.chainId}`);
    if (await heldFreeze(ctx.em, { wallet: wallet.id, shareClassId })) throw alreadyFrozen(wallet.address, shareClassId);
    const intent = this.chain.intend(
      ctx.em,
      { chainId: wallet.chainId, purpose: FREEZE_PURPOSE, walletId: wallet.id },
      { op: 'setFrozen', token: token.contractAddress, wallet: wallet.address, frozen: true },
    );
    await ctx.em.flush();
    const row = ctx.em.create(WalletFreeze, {
      wallet,
      investorId: wallet.investor.id,
      shareClassId,
      chainId: wallet.chainId,
      tokenAddress: token.contractAddress.toLowerCase(),
      walletAddress: wallet.address.toLowerCase(),
      status: WalletFreezeStatus.freezing,
      reason,
      frozenBy: principalLabel(ctx.access.principal)!,
      frozenAt: this.clock.now(),
      freezeTransactionId: intent.id,
    });
    // Two operators freezing at once: the partial unique index keeps one, the other is the same 409.
    await ctx.em.flush().catch((err) => {
      throw err instanceof UniqueConstraintViolationException ? alreadyFrozen(wallet.address, shareClassId) : err;
    });
    this.chain.wake();
    return row;
  }

  /** A freeze, by id (404 otherwise). */
  async get(em: EntityManager, id: unknown): Promise<WalletFreeze> {
    const key = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
    const row = /^\d{1,18}$/.test(key) ? await em.findOne(WalletFreeze, { id: key }) : null;
    if (!row) throw notFound(`wallet freeze ${key} not found`);
    return row;
  }

  /**
   * What lifting the freeze would do, from the world now: the function that binds an unfreeze
   * request's effect and recomputes it at approval (`lock`: the row locked until the approver commits).
   * Only a freeze the chain holds or refused may be lifted.
   */
  async unfreezeEffect(em: EntityManager, args: { freezeId: string }, lock = false): Promise<WalletUnfreezeEffect> {
    const row = lock
      ? await em.findOneOrFail(WalletFreeze, { id: args.freezeId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
      : await this.get(em, args.freezeId);
    if (row.status !== WalletFreezeStatus.frozen && row.status !== WalletFreezeStatus.failed)
      throw badRequest(`wallet freeze ${row.id} is ${row.status}: only a frozen wallet may be unfrozen`);
    return {
      kind: 'wallet_unfreeze',
      version: 1,
      freezeId: row.id,
      investorId: row.investorId,
      shareClassId: row.shareClassId,
      chainId: row.chainId,
      tokenAddress: row.tokenAddress,
      wallet: row.walletAddress,
    };
  }

  /** Queues the unfreeze of an approved request, in the approver's transaction, from its bound effect. */
  async lift(em: EntityManager, requestId: string, effect: WalletUnfreezeEffect): Promise<WalletFreeze> {
    const row = await em.findOneOrFail(WalletFreeze, { id: effect.freezeId });
    const intent = this.chain!.intend(
      em,
      { chainId: effect.chainId, purpose: UNFREEZE_PURPOSE, walletId: row.wallet.id },
      { op: 'setFrozen', token: effect.tokenAddress, wallet: effect.wallet, frozen: false },
    );
    await em.flush();
    Object.assign(row, { status: WalletFreezeStatus.unfreezing, unfreezeRequestId: requestId, unfreezeTransactionId: intent.id, error: undefined });
    await em.flush();
    this.chain!.wake();
    return row;
  }

  /**
   * A freeze's or an unfreeze's outcome at its depth (wallet-onchain.ts routes `wallet.freeze` and
   * `wallet.thaw` here first); false when the intent is not a freeze's (a removal's own freeze).
   */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<boolean> {
    const column = tx.purpose === UNFREEZE_PURPOSE ? 'unfreezeTransactionId' : 'freezeTransactionId';
    const row = await em.findOne(WalletFreeze, { [column]: tx.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) return false;
    if (tx.purpose === UNFREEZE_PURPOSE && row.status === WalletFreezeStatus.unfreezing) {
      // The chain refused to unfreeze: the wallet is still frozen there, and here.
      if (outcome.ok) Object.assign(row, { status: WalletFreezeStatus.lifted, liftedAt: this.clock.now() });
      else Object.assign(row, { status: WalletFreezeStatus.frozen, error: `unfreeze: ${outcome.reason}` });
    } else if (tx.purpose === FREEZE_PURPOSE && row.status === WalletFreezeStatus.freezing) {
      if (outcome.ok) row.status = WalletFreezeStatus.frozen;
      else Object.assign(row, { status: WalletFreezeStatus.failed, error: `freeze: ${outcome.reason}` });
    }
    await em.flush();
    return true;
  }
}

const alreadyFrozen = (wallet: string, shareClassId: string) => conflict(`wallet ${wallet} is already frozen on share class ${shareClassId}`);

/** The freeze the gateway holds for that wallet (or that investor's wallets) on that class, if any. */
function heldFreeze(em: EntityManager, where: { wallet?: string; investorId?: string; shareClassId: string }): Promise<WalletFreeze | null> {
  return em.findOne(WalletFreeze, { ...where, status: { $in: HELD } }, { orderBy: { id: 'asc' } });
}

/** The freezes the gateway holds on an investor's wallets (any class), oldest first: what its page and positions show. */
export function heldFreezes(em: EntityManager, filter: { investorId?: string; shareClassId?: string; walletId?: string }): Promise<WalletFreeze[]> {
  const { walletId, ...rest } = filter;
  return em.find(WalletFreeze, { ...rest, ...(walletId ? { wallet: walletId } : {}), status: { $in: HELD } }, { orderBy: { id: 'asc' } });
}

/**
 * The one check of a frozen wallet (409): an investor's redemption of a class, or a transfer from or
 * to its wallet, while one of its wallets is frozen on that class. Placement on both REST surfaces
 * and GraphQL (OneStepOrderService.placeRedemption) and forced transfers (ForcedTransfers.effect) call it.
 */
export async function walletFrozenRefusal(em: EntityManager, investorId: string, shareClassId: string): Promise<DomainError | null> {
  const held = await heldFreeze(em, { investorId, shareClassId });
  return held
    ? conflict(
        `the investor's wallet ${held.walletAddress} is frozen on share class ${shareClassId}: its redemptions and transfers are refused until an approved unfreeze`,
      )
    : null;
}
