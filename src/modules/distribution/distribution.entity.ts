import { Entity, Enum, Index, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { bigintColumn } from '../../persistence/bigint-column';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import { IncomePayment } from './distribution-policy.entity';

export enum DistributionStatus {
  /** Entitlements computed and frozen; nothing paid. */
  declared = 'declared',
  /** Payments recorded or mints queued; some not final yet. */
  paying = 'paying',
  /** Every entitlement paid or failed. */
  paid = 'paid',
}
registerEnumType(DistributionStatus, { name: 'DistributionStatus' });

export enum EntitlementStatus {
  pending = 'pending',
  /** In a batchMint intent, waiting for its confirmation depth. */
  sending = 'sending',
  paid = 'paid',
  failed = 'failed',
}
registerEnumType(EntitlementStatus, { name: 'EntitlementStatus' });

/**
 * A distribution declared by ops: the share class, the period whose daily closing balances
 * entitle holders (a record date is a period of one day), the pay date, and either a rate per
 * token per day or an amount per token. Its entitlements are computed once, at declaration.
 */
@ObjectType('Distribution')
@Entity({ tableName: 'distribution' })
@Index({ properties: ['shareClassId', 'payDate'] })
export class Distribution {
  @Field(() => ID)
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => ID)
  @Property({ type: 'text' })
  shareClassId: string;

  @Field(() => String, { description: 'First day of the period (YYYY-MM-DD, dealing zone)' })
  @Property({ type: 'text' })
  periodFrom: string;

  @Field(() => String, { description: 'Last day of the period, included; the record date when paid per token' })
  @Property({ type: 'text' })
  periodTo: string;

  @Field(() => String)
  @Property({ type: 'text' })
  payDate: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Currency per token per day held (closing balances)' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  ratePerTokenPerDay?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Currency per token held at the close of the record date (periodTo)' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  amountPerToken?: string | null;

  @Field(() => IncomePayment)
  @Enum({ items: () => IncomePayment })
  payment: IncomePayment;

  @Field(() => String)
  @Property({ type: 'text' })
  currency: string;

  @Field(() => String)
  @Property({ type: 'text' })
  timeZone: string;

  @Field(() => DistributionStatus)
  @Enum({ items: () => DistributionStatus })
  status: DistributionStatus;

  @Field(() => DecimalScalar, { description: 'Sum of the holders’ unrounded entitlements' })
  @Property({ type: 'decimal', columnType: 'numeric' })
  gross: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Paid in total (cash; or minted tokens × NAV): gross − residue' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  paid?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'What rounding down per holder left unpaid; it stays in the fund' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  residue?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'The pay date’s NAV (reinvest)' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  nav?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens minted in total (reinvest)' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  tokens?: string | null;

  @Field(() => EpochMs)
  @Property({ type: 'datetime', length: 3 })
  declaredAt: Date;

  @Field(() => String)
  @Property({ type: 'text' })
  declaredBy: string;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  paidAt?: Date | null;
}

/** One holder's entitlement to a distribution, and how it was paid. */
@ObjectType('DistributionEntitlement')
@Entity({ tableName: 'distribution_entitlement' })
@Unique({ properties: ['distributionId', 'investorId'] })
@Index({ properties: ['investorId'] })
export class DistributionEntitlement {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Field(() => ID)
  @Property({ type: bigintColumn() })
  distributionId: string;

  @Field(() => ID)
  @Property({ type: 'text' })
  investorId: string;

  @Field(() => ID)
  @Property({ type: 'text' })
  distributorId: string;

  @Field(() => DecimalScalar, { description: 'Sum of the daily closing balances over the period (token-days); the record date’s balance when paid per token' })
  @Property({ type: 'decimal', columnType: 'numeric' })
  tokenDays: string;

  @Field(() => DecimalScalar, { description: 'Unrounded entitlement in the currency' })
  @Property({ type: 'decimal', columnType: 'numeric' })
  gross: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Paid in the currency (cash: rounded down to cents; reinvest: tokens × NAV)' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  amount?: string | null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens minted (reinvest), rounded down to the token’s decimals' })
  @Property({ type: 'decimal', columnType: 'numeric', nullable: true })
  tokens?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  wallet?: string | null;

  @Field(() => EntitlementStatus)
  @Enum({ items: () => EntitlementStatus })
  status: EntitlementStatus;

  @Property({ type: bigintColumn(), nullable: true, index: true })
  transactionId?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  transferHash?: string | null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  failureReason?: string | null;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  paidAt?: Date | null;
}
