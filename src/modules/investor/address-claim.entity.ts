import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';

/** Who may hold an address: an investor (its wallets) or a distributor (its own wallets, `hold` delivery). */
export type HolderKind = 'investor' | 'distributor';

/**
 * One address, one holder, as a constraint: every address a holder's wallet ever had, case-folded,
 * and that holder. Written only by the database, in the statement that writes a wallet (triggers
 * on `investor_wallet` and `distributor_wallet`, Migration20261129200000), never updated nor
 * deleted: a removed wallet's address stays its holder's. Its primary key refuses a second holder
 * (23505 on `address_claim_pkey`, which the error table answers with 409 `address is a wallet of another holder`); the custody
 * rule (wallet-custody.ts) reads it to say whether an address is someone else's.
 */
@Entity({ tableName: 'address_claim' })
@Unique({ name: 'address_claim_holder_unique', properties: ['address', 'holderKind', 'holderId'] })
export class AddressClaim {
  /** Lower case. */
  @PrimaryKey({ type: 'text' })
  address: string;

  @Property({ type: 'text' })
  holderKind: HolderKind;

  @Property({ type: 'text' })
  holderId: string;

  @Property({ type: 'datetime', length: 3, defaultRaw: 'now()' })
  claimedAt: Date;
}

/** The constraint that refuses an address to a second holder. */
export const ADDRESS_CLAIM_CONSTRAINT = 'address_claim_pkey';
