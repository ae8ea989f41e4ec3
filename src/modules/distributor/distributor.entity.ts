import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { ShareClass } from '../share-class';
import { bigintColumn } from '../../persistence/bigint-column';

/** A partner firm. `DT######` on surface R; the same record is `PT######` on surface O. */
@ObjectType()
@Entity({ tableName: 'distributor' })
export class Distributor extends Audited {
  @Field(() => ID, { description: '`DT######`' })
  @PrimaryKey({ type: 'text' })
  id: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name: string;

  @Field(() => String)
  @Property({ type: 'text', default: 'active' })
  status: Opt<string> = 'active';
}

/** A hostname through which surface R requests reach a distributor ("hostname provisioning"). */
@ObjectType()
@Entity({ tableName: 'distributor_host' })
export class DistributorHost extends Audited {
  @Field(() => String, { description: 'Lower-case hostname, without port' })
  @PrimaryKey({ type: 'text' })
  hostname: string;

  @Index()
  @ManyToOne(() => Distributor, { deleteRule: 'cascade' })
  distributor: Distributor;

  @Field(() => [String], { description: 'Source CIDR ranges requests on this host must come from (the client address as TRUST_PROXY resolves it); empty: any' })
  @Property({ type: 'json', default: '[]' })
  sourceRanges: Opt<string[]> = [];

  @Field(() => String, {
    nullable: true,
    description: 'SHA-256 fingerprint (lower-case hex) of the client certificate requests on this host must present over TLS; null: none',
  })
  @Property({ type: 'text', nullable: true })
  clientCertSha256?: string | null;
}

/** The distributor's own wallet on a chain: where tokens land in `hold` delivery. */
@ObjectType()
@Entity({ tableName: 'distributor_wallet' })
@Unique({ properties: ['distributor', 'chainId'] })
export class DistributorWallet extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Distributor, { deleteRule: 'cascade' })
  distributor: Distributor;

  @Field(() => String)
  @Property({ type: 'text' })
  chainId: string;

  @Field(() => String)
  @Property({ type: 'text' })
  address: string;
}

export enum DeliveryMode {
  passthrough = 'passthrough',
  hold = 'hold',
}
registerEnumType(DeliveryMode, {
  name: 'DeliveryMode',
  description: "`passthrough`: tokens to the investor's wallet; `hold`: to the distributor's wallet",
});

/** A share class a distributor may sell, and how its tokens are delivered. */
@ObjectType()
@Entity({ tableName: 'share_class_grant' })
@Unique({ properties: ['distributor', 'shareClass'] })
export class ShareClassGrant extends Audited {
  @PrimaryKey({ type: bigintColumn(), autoincrement: true })
  id: Opt<string>;

  @ManyToOne(() => Distributor, { deleteRule: 'cascade' })
  distributor: Distributor;

  @Index()
  @ManyToOne(() => ShareClass, { deleteRule: 'cascade' })
  shareClass: ShareClass;

  @Field(() => DeliveryMode)
  @Enum({ items: () => DeliveryMode })
  deliveryMode: DeliveryMode;
}
