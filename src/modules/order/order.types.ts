import { Field, InputType } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { EpochMs } from '../../common/scalars';
import { Order, OrderFlow } from './order.entity';

/** Filters of the order book; every one optional, combined with AND. */
@InputType()
export class OrderFilter {
  @Field(() => String, { nullable: true, description: "`DT######`; another distributor's answers `distributorId not found`" })
  distributorId?: string | null;

  @Field(() => String, { nullable: true, description: "`IN######`; another distributor's answers `investorId not found`" })
  investorId?: string | null;

  @Field(() => String, { nullable: true })
  shareClassId?: string | null;

  @Field(() => String, { nullable: true })
  status?: string | null;

  @Field(() => String, { nullable: true, description: 'Exact match: reconcile by your correlation id' })
  externalRef?: string | null;

  @Field(() => OrderFlow, { nullable: true })
  flow?: OrderFlow | null;

  @Field(() => EpochMs, { nullable: true, description: 'createdAt >= this' })
  createdFrom?: Date | null;

  @Field(() => EpochMs, { nullable: true, description: 'createdAt <= this' })
  createdTo?: Date | null;

  @Field(() => String, { nullable: true, description: 'Dealing date `YYYY-MM-DD`: what is dealt that day' })
  dealingDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Expected settlement date `YYYY-MM-DD`: what is due that day' })
  expectedSettlementDate?: string | null;

  @Field(() => String, { nullable: true, description: 'Expected settlement before `YYYY-MM-DD` (with a status filter: what is late)' })
  expectedSettlementBefore?: string | null;
}

export const OrderPage = PageOf(Order, 'OrderPage');
