import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { Distributor } from '../distributor';
import { ShareClass } from '../share-class';
import { EpochMs } from '../../common/scalars';
import { bigintColumn } from '../../persistence/bigint-column';
import { InvestorCategory } from './investor-category';

/** An end-investor; `IN######` on surface R, the same record is user `US######` on surface O. */
@ObjectType()
@Entity({ tableName: 'investor' })
@Index({ properties: ['distributor', 'externalInvestorId'] })
export class Investor extends Audited {
  @Field(() => ID, { description: '`IN######`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  /** Permanent: an investor never changes distributor. */
  @ManyToOne(() => Distributor, { deleteRule: 'restrict' })
  distributor: Distributor;

  @Field(() => String, { nullable: true, description: "Partner's own user id, stored verbatim" })
  @Property({ type: 'text', nullable: true })
  externalInvestorId?: string;

  @Field(() => String, { nullable: true })
  @Index({ name: 'investor_email_index', expression: 'create index "investor_email_index" on "investor" (lower("email"))' })
  @Property({ type: 'text', nullable: true })
  email?: string;

  @Field(() => String, { nullable: true, description: 'Surface O registers users by name' })
  @Property({ type: 'text', nullable: true })
  name?: string;

  @Field(() => String, { nullable: true, description: 'ISO country code' })
  @Property({ type: 'text', nullable: true })
  countryCode?: string;

  @Field(() => String)
  @Property({ type: 'text', default: 'active' })
  status: Opt<string> = 'active';

  /** Set by ops; an upgrade is four-eyes (src/modules/eligibility). Null: none recorded, which a rule set admitting only some categories refuses. */
  @Field(() => InvestorCategory, { nullable: true, description: 'Investor category, set by operations (an upgrade is four-eyes)' })
  @Enum({ items: () => InvestorCategory, nullable: true })
  category: Opt<InvestorCategory> | null = null;

  @Field(() => EpochMs, { nullable: true, description: 'When KYC was last verified (set by operations)' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  kycVerifiedAt: Opt<Date> | null = null;

  /** From this instant the investor places no subscription and is minted nothing until KYC is renewed. */
  @Field(() => EpochMs, {
    nullable: true,
    description: 'When the KYC verification expires; past it the investor takes no new subscription and is minted nothing',
  })
  @Property({ type: 'datetime', length: 3, nullable: true })
  kycExpiresAt: Opt<Date> | null = null;
}

/** A share class an investor may use, granted by operations. */
@Entity({ tableName: 'investor_grant' })
@Unique({ properties: ['investor', 'shareClass'] })
export class InvestorGrant extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Investor, { deleteRule: 'cascade' })
  investor: Investor;

  @Index()
  @ManyToOne(() => ShareClass, { deleteRule: 'cascade' })
  shareClass: ShareClass;
}

export enum WalletStatus {
  /** Registered, identity verification not yet through: cannot receive tokens. */
  pending = 'pending',
  whitelisted = 'whitelisted',
  /** Removed from the whitelist, e.g. compromised; kept for the record. */
  removed = 'removed',
}
registerEnumType(WalletStatus, { name: 'WalletStatus' });

/**
 * An investor's wallet on a chain. At most one wallet per chain is in use (not removed);
 * a partial unique index holds it.
 */
@ObjectType()
@Entity({ tableName: 'investor_wallet' })
@Index({
  name: 'investor_wallet_in_use_unique',
  expression: 'create unique index "investor_wallet_in_use_unique" on "investor_wallet" ("investor_id", "chain_id") where "status" <> \'removed\'',
})
@Index({
  name: 'investor_wallet_kyc_claim_due_index',
  expression:
    'create index "investor_wallet_kyc_claim_due_index" on "investor_wallet" ("kyc_claim_expires_at") where "kyc_claim_issued_at" is not null and "kyc_claim_revoked_at" is null',
})
export class InvestorWallet extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @Index()
  @ManyToOne(() => Investor, { deleteRule: 'cascade' })
  investor: Investor;

  @Field(() => String)
  @Property({ type: 'text' })
  chainId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  address: string;

  @Field(() => WalletStatus)
  @Enum({ items: () => WalletStatus })
  status: Opt<WalletStatus> = WalletStatus.pending;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  whitelistedAt?: Date;

  @Field(() => EpochMs, { nullable: true })
  @Property({ type: 'datetime', length: 3, nullable: true })
  removedAt?: Date;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  removalReason?: string;

  @Field(() => String, { nullable: true, description: "The investor's ONCHAINID identity on this chain (custodial: the gateway holds its management key)" })
  @Property({ type: 'text', nullable: true })
  onchainIdentity?: string;

  @Field(() => String, { nullable: true, description: 'The wallet this one replaces, recovered from it (`recoverInvestorWallet`)' })
  @Property({ type: bigintColumn(), nullable: true })
  recoveredFrom?: string;

  /**
   * A recovered wallet's tokens, as its approved request bound them (token address, lower case, and
   * units): the recovery's chain steps move exactly these. Null on other wallets, and on recoveries
   * approved before requests bound their effect.
   */
  @Property({ type: 'json', nullable: true })
  recoveryTokens?: { tokenAddress: string; units: string }[];

  @Field(() => String, { nullable: true, description: 'Why the last on-chain step for this wallet failed (whitelisting, freezing); null when none did' })
  @Property({ type: 'text', nullable: true })
  chainError?: string;

  /*
   * The gateway's KYC claim on this wallet's identity (src/modules/investor/kyc-claim.ts), as the
   * intents written so far make it: recorded in the transaction that writes each intent, so a
   * restart neither repeats a revocation nor skips one.
   */
  /** When the gateway last issued the claim (its intent written); null: no claim issued yet. */
  @Field(() => EpochMs, { nullable: true, description: "When the gateway last issued the KYC claim on this wallet's identity" })
  @Property({ type: 'datetime', length: 3, nullable: true })
  kycClaimIssuedAt: Opt<Date> | null = null;

  /** The KYC expiry the claim carries (null: none); the expiry job revokes the claim once the clock passes it. */
  @Field(() => EpochMs, { nullable: true, description: 'The KYC expiry the claim on chain carries' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  kycClaimExpiresAt: Opt<Date> | null = null;

  /** When the gateway revoked the claim through its claim issuer; null while it stands. */
  @Field(() => EpochMs, { nullable: true, description: 'When the gateway revoked the KYC claim (expired or withdrawn KYC); null while it stands' })
  @Property({ type: 'datetime', length: 3, nullable: true })
  kycClaimRevokedAt: Opt<Date> | null = null;

  /**
   * The country (ISO 3166-1 numeric) the gateway last gave the identity registries for this wallet:
   * at registration, or by the country backfill (wallet-country.ts). Null: not known, a wallet
   * registered before the gateway recorded it; the backfill reads the chain for it once.
   */
  @Property({ type: 'smallint', nullable: true })
  registeredCountry: Opt<number> | null = null;

  /** How many claims the gateway issued to this identity: the claim's data carries it, so a fresh claim never has a revoked signature. */
  @Property({ type: 'integer', default: 0 })
  kycClaimIssue: Opt<number> = 0;
}
