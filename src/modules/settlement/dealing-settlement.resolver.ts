import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { conflict } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import type { ModuleContext } from '../../access/module-services';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { OrderType } from '../order';
import { ChainTransaction } from '../chain';
import type { LedgerIntent } from '../../ledger/token-ledger';
import type { DealingDateSettlement, DealingOutcome, DealingPlan, DealingRow } from './dealing-settlement';

@ObjectType('DealingSettlementRow', { description: 'An accepted order of the dealing date, priced at its NAV, and what its check on chain found.' })
class DealingSettlementRowView {
  @Field(() => ID) orderId: string;
  @Field(() => String) type: OrderType;
  @Field(() => String) wallet: string;
  @Field(() => DecimalScalar, { description: 'Tokens minted (subscription) or burned (redemption)' }) tokens: string;
  @Field(() => DecimalScalar, { description: 'Amount paid in (subscription) or proceeds (redemption)' }) amount: string;
  @Field(() => String, { nullable: true, description: 'Why this order fails instead of settling (null: it settles)' }) refusal: string | null;
}

@ObjectType('DealingSettlementPreview', { description: 'Ops: what settling a dealing date would do now.' })
class DealingSettlementPreviewView {
  @Field(() => ID) shareClassId: string;
  @Field(() => String) dealingDate: string;
  @Field(() => DecimalScalar, { description: 'The NAV used: the last published on the dealing date' }) nav: string;
  @Field(() => EpochMs) navPublishedAt: Date;
  @Field(() => String) chainId: string;
  @Field(() => String) tokenAddress: string;
  @Field(() => [DealingSettlementRowView]) rows: DealingRow[];
  @Field(() => DecimalScalar, { description: 'Tokens the subscriptions that pass their check mint' }) tokensMinted: string;
  @Field(() => DecimalScalar, { description: 'Tokens the redemptions that pass their check burn' }) tokensBurned: string;
  @Field(() => DecimalScalar, { description: 'Proceeds of the redemptions that pass their check' }) proceeds: string;
  @Field(() => [ID], { description: 'Accepted orders of the date already in a transaction: not settled again' }) inFlight: string[];
}

@ObjectType('DealingSettlementFailure')
class DealingSettlementFailureView {
  @Field(() => ID) orderId: string;
  @Field(() => String) reason: string;
}

@ObjectType('DealingSettlement', { description: 'Ops: a dealing date sent to settle: its batch transactions and the orders failed by their check.' })
class DealingSettlementView extends DealingSettlementPreviewView {
  @Field(() => [ChainTransaction], {
    description: 'The batchMint / batchBurn intents queued by this run; each order settles when its batch reaches the confirmation depth',
  })
  transactions: LedgerIntent[];
  @Field(() => [DealingSettlementFailureView]) failed: { orderId: string; reason: string }[];
}

/** The total of a field over the rows of a type that pass their check. */
const sum = (rows: DealingRow[], type: OrderType, field: 'tokens' | 'amount') =>
  decimalString(rows.filter((r) => r.type === type && !r.refusal).reduce((s, r) => s.plus(r[field]), new Dec(0)));

const view = <T extends DealingPlan>(p: T) => ({
  ...p,
  tokensMinted: sum(p.rows, OrderType.subscription, 'tokens'),
  tokensBurned: sum(p.rows, OrderType.redemption, 'tokens'),
  proceeds: sum(p.rows, OrderType.redemption, 'amount'),
});

@Resolver()
export class DealingSettlementResolver {
  private service(ctx: ModuleContext<'settlement'>): DealingDateSettlement {
    const s = ctx.services.dealingSettlement;
    if (!s) throw conflict('no chain is configured: dealing dates settle on chain');
    return s;
  }

  @Query(() => DealingSettlementPreviewView, {
    description:
      "Ops: the accepted one-step orders of a share class's dealing date, priced at that date's NAV and checked on chain (409 while the date's NAV is not published).",
  })
  dealingSettlementPreview(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('dealingDate', () => String) dealingDate: string,
    @Ctx() ctx: ModuleContext<'settlement'>,
  ) {
    return this.service(ctx).preview(ctx, shareClassId, dealingDate).then(view);
  }

  @Mutation(() => DealingSettlementView, {
    description:
      "Ops: settle a dealing date: every accepted one-step order of the share class and date, priced at the date's NAV (409 while it is not published), checked row by row (a row failing is failed with its reason), minted or burned with batchMint / batchBurn in gas-sized chunks. Idempotent: orders already in a transaction are not sent again.",
  })
  settleDealingDate(
    @Arg('shareClassId', () => ID) shareClassId: string,
    @Arg('dealingDate', () => String) dealingDate: string,
    @Ctx() ctx: ModuleContext<'settlement'>,
  ): Promise<DealingOutcome> {
    return this.service(ctx).settle(ctx, shareClassId, dealingDate).then(view);
  }
}
