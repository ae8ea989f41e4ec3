import { Entity, Enum, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { registerEnumType } from 'type-graphql';
import { DECIMAL_COLUMN } from '../../common/money';
import { bigintColumn } from '../../persistence/bigint-column';

/** What a correction books for an order settled at the wrong NAV. */
export enum CompensationAction {
  /** Tokens the corrected NAV gives beyond those minted: minted to the investor's own wallet. */
  mint = 'mint',
  /** Tokens minted beyond what the corrected NAV gives: burned from the investor's own wallet. */
  burn = 'burn',
  /** No token can move (already redeemed, no wallet of the investor's own, a redemption's proceeds): cash, recorded against the order. */
  cash = 'cash',
}
registerEnumType(CompensationAction, { name: 'CompensationAction' });

/** `sending` (its batch intent is on its way) → `booked` | `failed`; a cash row is `recorded` at once. */
export enum CompensationStatus {
  sending = 'sending',
  booked = 'booked',
  failed = 'failed',
  recorded = 'recorded',
}

/**
 * One order's compensation under one `nav_correction` request (nav-correction.ts), written with
 * the approval, in batches: a token row waits for its batch intent (`transactionId`) to reach its
 * depth, then the register follows (the holding ledger) and it is `booked`.
 */
@Entity({ tableName: 'nav_compensation' })
@Unique({ name: 'nav_compensation_request_order', properties: ['requestId', 'orderId'] })
export class NavCompensation {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Property({ type: bigintColumn() })
  requestId: string;

  @Property({ type: bigintColumn() })
  navId: string;

  @Property({ type: 'text', index: 'nav_compensation_order_id_index' })
  orderId: string;

  @Property({ type: 'text' })
  investorId: string;

  @Property({ type: 'text' })
  distributorId: string;

  @Property({ type: 'text' })
  shareClassId: string;

  @Enum({ items: () => CompensationAction })
  action: CompensationAction;

  /** Tokens minted (positive) or burned (negative); for cash, the tokens the cash stands for (0 for a redemption). */
  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  tokens: string;

  /** |tokens| in token units, as sent on chain; null for cash. */
  @Property({ type: 'text', nullable: true })
  units?: string | null;

  /** Cash due to the investor (positive) or by the investor (negative); null for tokens. */
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  cashAmount?: string | null;

  @Property({ type: 'text', nullable: true })
  currency?: string | null;

  @Property({ type: 'text', nullable: true })
  chainId?: string | null;

  @Property({ type: 'text', nullable: true })
  wallet?: string | null;

  @Property({ type: 'text', nullable: true })
  tokenAddress?: string | null;

  @Enum({ items: () => CompensationStatus })
  status: CompensationStatus;

  @Property({ type: bigintColumn(), nullable: true, index: 'nav_compensation_transaction_id_index' })
  transactionId?: string | null;

  @Property({ type: 'text', nullable: true })
  transferHash?: string | null;

  @Property({ type: 'text', nullable: true })
  failure?: string | null;

  @Property({ type: 'datetime', length: 3 })
  createdAt: Date;

  @Property({ type: 'datetime', length: 3, nullable: true })
  bookedAt?: Date | null;
}
