import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Audited } from '../../persistence/audited.entity';
import { Investor } from '../investor';
import { ShareClass } from '../share-class';
import { LotSource } from './holding-lot.entity';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * One change of a holding, written by the holding ledger (holding-ledger.ts) in the transaction
 * that makes it: the register's journal. An order moves a holding at most once — `orderId` is
 * unique — so a settlement repeated after a crash or by a second confirmation changes nothing.
 * The chain's reconciliation explains a difference by these rows.
 */
@Entity({ tableName: 'holding_movement' })
@Index({ properties: ['investor', 'shareClass', 'at'] })
export class HoldingMovement extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Investor, { deleteRule: 'restrict' })
  investor: Investor;

  @ManyToOne(() => ShareClass, { deleteRule: 'restrict' })
  shareClass: ShareClass;

  /** Signed: tokens in are positive, tokens out negative. */
  @Property({ type: 'decimal', precision: 38, scale: 18 })
  change: string;

  /** The holding's balance after this change. */
  @Property({ type: 'decimal', precision: 38, scale: 18 })
  balance: string;

  @Enum({ items: () => LotSource })
  source: LotSource;

  @Unique()
  @Property({ type: 'text', nullable: true })
  orderId?: string;

  @Property({ type: 'text', nullable: true })
  transferHash?: string;

  @Property({ type: 'text', nullable: true })
  reason?: string;

  /** When the tokens moved (a settlement's instant; an adjustment's booking). */
  @Property({ type: 'datetime', length: 3 })
  at: Date;
}
