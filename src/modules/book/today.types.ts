import { Field, Int, ObjectType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';

@ObjectType({ description: 'An order whose next move is an acceptance by ops (one-step `pending`, two-step `submitted`: its supply-side outcome)' })
export class TodayOrderToAccept {
  @Field(() => String)
  id: string;

  @Field(() => String)
  flow: string;

  @Field(() => String)
  status: string;

  @Field(() => String, { description: '`subscription` or `redemption`' })
  type: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'A subscription’s amount' })
  amount: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'A redemption’s tokens' })
  tokenCount: string | null;

  @Field(() => String)
  currency: string;

  @Field(() => String, { nullable: true })
  dealingDate: string | null;

  @Field(() => EpochMs)
  placedAt: Date;
}

@ObjectType({ description: "A share class's dealing date, today's or earlier, whose NAV is not published yet (its orders are priced at it)" })
export class TodayNavDue {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => String, { description: 'The dealing calendar’s zone, in which the date is read' })
  timeZone: string;

  @Field(() => String, { description: '`YYYY-MM-DD`' })
  dealingDate: string;

  @Field(() => Int, { description: 'Orders of the date not yet settled, rejected, cancelled or failed' })
  openOrders: number;

  @Field(() => Int, { description: 'NAVs of the share class outside its tolerance, waiting in Approvals for a second principal' })
  pendingNavs: number;
}

@ObjectType({ description: 'Accepted orders of a dealing date expected to settle today or earlier' })
export class TodaySettlementDue {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => String)
  dealingDate: string;

  @Field(() => String, { description: 'The earliest expected settlement date of its orders; before today: late' })
  expectedSettlementDate: string;

  @Field(() => Int)
  orders: number;

  @Field(() => Boolean, { description: 'Whether the dealing date’s NAV is published (the date settles only then)' })
  navPublished: boolean;
}

@ObjectType({ description: 'Requests of one kind awaiting a second principal’s decision' })
export class TodayApprovals {
  @Field(() => String)
  kind: string;

  @Field(() => Int)
  count: number;
}

@ObjectType({ description: 'A transaction of the gateway that reverted or never reached a block, in the last seven days' })
export class TodayFailedTransfer {
  @Field(() => String)
  id: string;

  @Field(() => String)
  chainId: string;

  @Field(() => String)
  purpose: string;

  @Field(() => String)
  status: string;

  @Field(() => String, { nullable: true })
  orderId: string | null;

  @Field(() => String, { nullable: true, description: 'The investor whose wallet it concerns' })
  investorId: string | null;

  @Field(() => String, { nullable: true })
  revertReason: string | null;

  @Field(() => EpochMs)
  at: Date;
}

@ObjectType({
  description:
    'Movements the chain follower saw on a share class’s token that the register does not follow, or that reached a holder the class’s rule set refuses (ChainMovement.ineligibility)',
})
export class TodayUnexplained {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => Int)
  movements: number;

  @Field(() => DecimalScalar, { description: 'Σ tokens moved' })
  tokens: string;
}

@ObjectType({ description: "A share class's assets under management at its live NAV, and at the NAV before it" })
export class TodayAum {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => String)
  currency: string;

  @Field(() => DecimalScalar, { description: 'The live NAV' })
  nav: string;

  @Field(() => EpochMs)
  navPublishedAt: Date;

  @Field(() => DecimalScalar, { description: 'Tokens in the register now' })
  tokens: string;

  @Field(() => DecimalScalar, { description: 'tokens × nav' })
  aum: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'The register’s tokens when the NAV before was published × that NAV; null: no NAV before' })
  previousAum: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'aum − previousAum' })
  change: string | null;
}

@ObjectType({ description: 'What the desk has to do today, and the book’s size' })
export class Today {
  @Field(() => EpochMs)
  at: Date;

  @Field(() => Int, { description: 'Every order whose next move is an acceptance' })
  ordersToAcceptCount: number;

  @Field(() => [TodayOrderToAccept], { description: 'The 20 placed first' })
  ordersToAccept: TodayOrderToAccept[];

  @Field(() => [TodayNavDue], { description: 'Oldest dealing date first' })
  navsDue: TodayNavDue[];

  @Field(() => [TodaySettlementDue], { description: 'Oldest dealing date first' })
  settlementsDue: TodaySettlementDue[];

  @Field(() => [TodayApprovals])
  approvalsWaiting: TodayApprovals[];

  @Field(() => [TodayFailedTransfer], { description: 'Newest first, at most 20' })
  failedTransfers: TodayFailedTransfer[];

  @Field(() => [TodayUnexplained])
  unexplainedMovements: TodayUnexplained[];

  @Field(() => [TodayAum], { description: 'Share classes with a live NAV' })
  aum: TodayAum[];
}
