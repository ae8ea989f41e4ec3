import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/**
 * The transfer that settled an order (settlement-transfers.ts): the primary key (chain, hash, log
 * index; -1 where the chain was not read) is what makes one transfer settle one order, however
 * many requests race for it.
 */
@Entity({ tableName: 'settlement_transfer' })
export class SettlementTransferRecord {
  @PrimaryKey({ type: 'text' })
  chainId: string;

  @PrimaryKey({ type: 'text' })
  transferHash: string;

  @PrimaryKey({ type: 'int' })
  logIndex: number;

  @Property({ type: 'text', index: 'settlement_transfer_order_id_index' })
  orderId: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Opt<Date>;
}
