import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { bigintColumn } from '../../persistence/bigint-column';

/**
 * One row of a batch transaction (`batchMint` / `batchBurn`): the order it settles. An order is
 * in at most one batch (the primary key) and never also in a single-order intent (checked under
 * the order's lock), so a dealing date settled twice, or again after a crash, mints nothing twice.
 */
@Entity({ tableName: 'chain_batch_order' })
export class ChainBatchOrder {
  @PrimaryKey({ type: 'text' })
  orderId: string;

  @Property({ type: bigintColumn(), index: true })
  transactionId: string;

  /** The row's amount in token units (the token's decimals). */
  @Property({ type: 'text' })
  units: string;
}
