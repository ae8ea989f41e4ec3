import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Field, InputType } from 'type-graphql';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { Dec, decimalString, DECIMAL_COLUMN } from '../../common/money';
import { chainId as validChainId, required, requiredDecimal } from '../../common/validate';
import { DecimalScalar } from '../../common/scalars';
import { toUnits } from '../../common/units';
import type { LedgerIntent, LedgerOutcome, TokenLedger } from '../../ledger/token-ledger';
import { Holding, type HoldingLedger } from '../holding';
import type { LockUpOnChain } from '../settlement';
import { Investor, InvestorWallet, walletCustody, walletFrozenRefusal, WalletStatus } from '../investor';
import { Token } from '../token';
import { ApprovalRequest } from './approval-request.entity';
import { ForcedTransfer, ForcedTransferStatus } from './forced-transfer.entity';
import type { ForcedTransferEffect } from './forced-transfer-effect';

/** Ops: tokens of one holder moved to another by the token's agent (court order, estate). */
@InputType()
export class ForcedTransferInput {
  @Field(() => String, { description: '`SC######`' })
  shareClassId: string;

  @Field(() => String, { description: 'The chain of the token (e.g. "31337")' })
  chainId: string;

  @Field(() => String, { description: 'The holder whose tokens move (`IN######`)' })
  fromInvestorId: string;

  @Field(() => String, { description: 'The holder who receives them (`IN######`), with a whitelisted wallet on the chain' })
  toInvestorId: string;

  @Field(() => DecimalScalar, { description: 'Tokens, positive' })
  quantity: string;

  @Field(() => String, { description: 'Why, e.g. "court order 2026/114"' })
  reason: string;
}

/** A forced transfer's arguments as the approval request stores them. */
export interface ForcedTransferArgs {
  shareClassId: string;
  chainId: string;
  fromInvestorId: string;
  toInvestorId: string;
  quantity: string;
  reason: string;
}

/** The `forced.` family of intents (this class registers their outcomes on the chain port). */
export const FORCED_TRANSFER_PURPOSE = 'forced.transfer';

/**
 * Forced transfers, four eyes (approval.service.ts): an operator asks, another principal approves,
 * and the approval queues T-REX `forcedTransfer(from, to, units)` as an intent in its own
 * transaction (the `forced_transfer` row with it: once). At the confirmation depth the register
 * moves with the chain, in the sender's transaction: the holding ledger takes the tokens from
 * the sender's oldest lots and books them to the receiver as those same lots (their settlement
 * dates kept, so lock-up does not start again; what is still in lock-up is frozen again at the
 * receiver's wallet, as T-REX delivers it free). The request binds its effect (`effect`: token,
 * wallets, units), each wallet its investor's own by the custody rule, the receiver's whitelisted;
 * the approval recomputes it, refuses any difference, and sends what was bound.
 */
export class ForcedTransfers {
  constructor(
    private readonly chain: TokenLedger | null,
    private readonly ledger: HoldingLedger,
    private readonly clock: Clock,
    private readonly lockUp: LockUpOnChain | null = null,
  ) {
    chain?.onOutcome('forced', (em, tx, outcome) => this.onOutcome(em, tx, outcome));
  }

  /** The arguments, checked as the transfer will check them (a request that cannot run is refused now). */
  check(input: Partial<ForcedTransferInput>): ForcedTransferArgs {
    const quantity = requiredDecimal(input.quantity, 'quantity', DECIMAL_COLUMN);
    if (!quantity.isPositive()) throw badRequest('quantity must be positive');
    const args: ForcedTransferArgs = {
      shareClassId: required(input.shareClassId, 'shareClassId').trim(),
      chainId: validChainId(input.chainId),
      fromInvestorId: required(input.fromInvestorId, 'fromInvestorId').trim(),
      toInvestorId: required(input.toInvestorId, 'toInvestorId').trim(),
      quantity: decimalString(quantity),
      reason: required(input.reason, 'reason').trim(),
    };
    if (args.fromInvestorId === args.toInvestorId) throw badRequest('toInvestorId must be another investor than fromInvestorId');
    return args;
  }

  /**
   * What the transfer of `args` would do, computed from the world now: the token, both wallets (each
   * its investor's own by the custody rule, the receiver's whitelisted), the quantity and its units.
   * The same function binds a request's effect and, at approval, recomputes it to compare
   * (approval-effect.ts). `lock`: in the approver's transaction, the holding and both wallet rows are
   * locked until it commits, so what was compared is what the intent is built from.
   */
  async effect(em: EntityManager, args: ForcedTransferArgs, lock = false): Promise<ForcedTransferEffect> {
    if (!this.chain?.writes(args.chainId)) throw badRequest(`the gateway does not write to chain ${args.chainId}`);
    const token = await em.findOne(Token, { shareClass: args.shareClassId, chainId: args.chainId }, { orderBy: { isPrimary: 'desc' } });
    if (!token) throw badRequest(`share class ${args.shareClassId} has no token on chain ${args.chainId}`);
    const lockMode = lock ? LockMode.PESSIMISTIC_WRITE : undefined;
    const holding = await em.findOne(Holding, { investor: args.fromInvestorId, shareClass: args.shareClassId }, { lockMode, refresh: lock });
    if (!holding || new Dec(holding.balance).lt(args.quantity)) throw badRequest('quantity exceeds holdings');
    // A wallet an operator froze on the class neither sends nor receives it (the one check of placement too).
    for (const investorId of [args.fromInvestorId, args.toInvestorId]) {
      const frozen = await walletFrozenRefusal(em, investorId, args.shareClassId);
      if (frozen) throw frozen;
    }
    const from = await this.walletOf(em, args.fromInvestorId, args.chainId, [WalletStatus.whitelisted, WalletStatus.pending], 'fromInvestorId', lockMode);
    const to = await this.walletOf(em, args.toInvestorId, args.chainId, [WalletStatus.whitelisted], 'toInvestorId', lockMode);
    return {
      kind: 'forced_transfer',
      version: 1,
      chainId: args.chainId,
      tokenAddress: token.contractAddress.toLowerCase(),
      shareClassId: args.shareClassId,
      decimals: token.decimals,
      fromInvestorId: args.fromInvestorId,
      fromWallet: from,
      toInvestorId: args.toInvestorId,
      toWallet: to,
      quantity: args.quantity,
      units: toUnits(args.quantity, token.decimals).toString(),
    };
  }

  /**
   * Queues the transfer of an approved request, in the approver's transaction, from its bound
   * effect alone: that token, those wallets, those units. Nothing is looked up again.
   */
  async start(em: EntityManager, requestId: string, effect: ForcedTransferEffect): Promise<ForcedTransfer> {
    const chain = this.chain!;
    const intent = chain.intend(
      em,
      { chainId: effect.chainId, purpose: FORCED_TRANSFER_PURPOSE },
      { op: 'forcedTransfer', token: effect.tokenAddress, from: effect.fromWallet, to: effect.toWallet, units: BigInt(effect.units) },
    );
    await em.flush();
    const row = em.create(ForcedTransfer, {
      approvalRequestId: requestId,
      shareClassId: effect.shareClassId,
      chainId: effect.chainId,
      tokenAddress: effect.tokenAddress,
      fromInvestorId: effect.fromInvestorId,
      fromWallet: effect.fromWallet,
      toInvestorId: effect.toInvestorId,
      toWallet: effect.toWallet,
      quantity: effect.quantity,
      transactionId: intent.id,
      status: ForcedTransferStatus.sending,
      createdAt: this.clock.now(),
    });
    await em.flush();
    chain.wake();
    return row;
  }

  /** The transfer reached its depth: the register moves with it, once; or it failed with the contract's reason. */
  async onOutcome(em: EntityManager, tx: LedgerIntent, outcome: LedgerOutcome): Promise<void> {
    const row = await em.findOne(ForcedTransfer, { transactionId: tx.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row || row.status !== ForcedTransferStatus.sending) return;
    row.decidedAt = this.clock.now();
    row.hash = outcome.hash ?? undefined;
    if (!outcome.ok) {
      Object.assign(row, { status: ForcedTransferStatus.failed, error: outcome.reason });
      return;
    }
    const reason = `forced transfer: ${(await em.findOneOrFail(ApprovalRequest, { id: row.approvalRequestId })).reason}`;
    const [from, to] = await Promise.all([em.findOneOrFail(Investor, { id: row.fromInvestorId }), em.findOneOrFail(Investor, { id: row.toInvestorId })]);
    const common = { shareClassId: row.shareClassId, at: row.decidedAt, transferHash: outcome.hash, reason };
    const payload = { forcedTransfer: String(row.id), chainId: row.chainId };
    const out = await this.ledger.chainMove(em, {
      ...common,
      investorId: from.id,
      distributorId: from.distributor.id,
      change: new Dec(row.quantity).neg().toFixed(),
      payload: { ...payload, wallet: row.fromWallet },
    });
    const into = await this.ledger.chainMove(em, {
      ...common,
      investorId: to.id,
      distributorId: to.distributor.id,
      change: row.quantity,
      lots: out.taken,
      payload: { ...payload, wallet: row.toWallet },
    });
    await this.lockUp?.freezeReceived(em, tx, row.shareClassId, row.toWallet, into.added);
    row.status = ForcedTransferStatus.done;
  }

  /** The investor's wallet on the chain, and the custody rule's word that it is the investor's own. */
  private async walletOf(
    em: EntityManager,
    investorId: string,
    chainId: string,
    statuses: WalletStatus[],
    field: string,
    lockMode?: LockMode.PESSIMISTIC_WRITE,
  ): Promise<string> {
    const wallet = await em.findOne(
      InvestorWallet,
      { investor: investorId, chainId, status: { $in: statuses } },
      { orderBy: { id: 'desc' }, lockMode, refresh: !!lockMode },
    );
    if (!wallet) throw badRequest(`${field}: investor ${investorId} has no ${statuses.length === 1 ? 'whitelisted ' : ''}wallet on chain ${chainId}`);
    if ((await walletCustody(em, { investorId, chainId, address: wallet.address })) !== 'own')
      throw badRequest(`${field}: wallet ${wallet.address} is not a wallet of investor ${investorId}`);
    return wallet.address.toLowerCase();
  }
}
