import { Field, Int, ObjectType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';

@ObjectType({ description: "A share class's assets under management when a NAV was published: the register's tokens then × that NAV" })
export class BookAumPoint {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => EpochMs)
  publishedAt: Date;

  @Field(() => DecimalScalar)
  nav: string;

  @Field(() => String)
  currency: string;

  @Field(() => DecimalScalar, { description: 'Tokens in the register at publishedAt (the holding ledger)' })
  tokens: string;

  @Field(() => DecimalScalar, { description: 'tokens × nav' })
  aum: string;
}

@ObjectType({ description: 'The subscriptions and redemptions of one dealing date in one currency (orders not rejected, cancelled or failed)' })
export class BookDealingFlow {
  @Field(() => String, { description: '`YYYY-MM-DD`' })
  dealingDate: string;

  @Field(() => String)
  currency: string;

  @Field(() => Int)
  subscriptions: number;

  @Field(() => DecimalScalar, { description: 'Σ amount of the subscriptions' })
  subscribedAmount: string;

  @Field(() => Int)
  redemptions: number;

  @Field(() => DecimalScalar, { description: 'Σ tokens of the redemptions' })
  redeemedTokens: string;
}

@ObjectType({ description: 'How many orders wait in one state of a flow (a state some move leaves)' })
export class BookWaitingOrders {
  @Field(() => String)
  flow: string;

  @Field(() => String)
  status: string;

  @Field(() => Int)
  count: number;
}

@ObjectType({ description: "A share class's next cut-offs under its dealing calendar" })
export class BookCutOff {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => String)
  subscriptionDealingDate: string;

  @Field(() => EpochMs)
  subscriptionCutOffAt: Date;

  @Field(() => String)
  redemptionDealingDate: string;

  @Field(() => EpochMs)
  redemptionCutOffAt: Date;
}

@ObjectType({ description: 'The register against the chain per share class, as the gateway last saw the chain (reconciliation reads it now)' })
export class BookChainStatus {
  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  shareClassName: string;

  @Field(() => String, { nullable: true, description: 'The primary token; null: none yet' })
  tokenAddress: string | null;

  @Field(() => String, { nullable: true })
  chainId: string | null;

  @Field(() => DecimalScalar, { description: 'Σ holdings in the register' })
  registerTotal: string;

  @Field(() => Int, { description: 'Settlement transactions of its orders not final on chain yet' })
  settlementsInFlight: number;

  @Field(() => Int, {
    description: 'Movements the chain follower saw that the register does not follow (an unknown holder, a mint or burn the gateway did not send), not undone',
  })
  unexplainedMovements: number;

  @Field(() => String, { description: '`no token`, `in step`, `settling` or `differs`' })
  status: string;
}

@ObjectType({ description: 'The book at a glance, for the desk' })
export class Book {
  @Field(() => EpochMs)
  at: Date;

  @Field(() => [BookAumPoint], { description: 'Per share class, at each NAV of the last year, oldest first' })
  aum: BookAumPoint[];

  @Field(() => [BookDealingFlow], { description: 'Per dealing date (the last 60 and those ahead), oldest first' })
  dealingFlows: BookDealingFlow[];

  @Field(() => [BookWaitingOrders])
  waiting: BookWaitingOrders[];

  @Field(() => [BookCutOff], { description: 'Active share classes, soonest subscription cut-off first' })
  cutOffs: BookCutOff[];

  @Field(() => [BookChainStatus])
  chain: BookChainStatus[];
}
