import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Audited } from '../../persistence/audited.entity';
import { DECIMAL_COLUMN } from '../../common/money';
import { Investor } from '../investor';
import { ShareClass } from '../share-class';
import { bigintColumn } from '../../persistence/bigint-column';

export enum LotSource {
  /** A settled one-step subscription. */
  order = 'order',
  /** An ops holding adjustment (a transfer in from a previous register, a correction). */
  adjustment = 'adjustment',
  /** A holding that existed before lots were kept (migration), or seeded. */
  opening = 'opening',
  /** Tokens received on chain from another holder, outside any order (the chain follower). */
  transfer = 'transfer',
}

/**
 * Tokens of a holding that arrived together, with the moment they settled: lock-up counts from
 * there. Redemptions and downward adjustments take from the oldest lots first (`remaining`), so
 * the tokens they use are the first to have unlocked. The holding's balance is the sum of its
 * lots' `remaining`.
 */
@Entity({ tableName: 'holding_lot' })
@Index({ properties: ['investor', 'shareClass', 'settledAt'] })
export class HoldingLot extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Investor, { deleteRule: 'restrict' })
  investor: Investor;

  @ManyToOne(() => ShareClass, { deleteRule: 'restrict' })
  shareClass: ShareClass;

  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  quantity: string;

  @Property({ type: 'decimal', ...DECIMAL_COLUMN })
  remaining: string;

  @Property({ type: 'datetime', length: 3 })
  settledAt: Date;

  @Enum({ items: () => LotSource })
  source: LotSource;

  @Property({ type: 'text', nullable: true })
  orderId?: string;

  @Property({ type: 'text', nullable: true })
  reason?: string;
}
