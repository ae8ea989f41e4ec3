import { Field, ID, InputType } from 'type-graphql';
import { PageOf } from '../../persistence/pagination';
import { DeliveryMode, Distributor } from './distributor.entity';

@InputType()
export class CreateDistributorInput {
  @Field(() => String)
  name: string;
}

@InputType()
export class UpdateDistributorInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: 'e.g. `active`, `suspended`' })
  status?: string | null;
}

@InputType()
export class DistributorFilter {
  @Field(() => String, { nullable: true })
  status?: string | null;

  @Field(() => String, { nullable: true, description: 'Case-insensitive substring of the name' })
  nameContains?: string | null;
}

@InputType()
export class DistributorHostInput {
  @Field(() => ID, { description: '`DT######` (or its alias `PT######`)' })
  distributorId: string;

  @Field(() => String, { description: 'Hostname surface R requests arrive on; stored in lower case, without port' })
  hostname: string;

  @Field(() => [String], { nullable: true, description: 'Source CIDR ranges the host admits (the client address as TRUST_PROXY resolves it); none: any' })
  sourceRanges?: string[] | null;

  @Field(() => String, { nullable: true, description: "SHA-256 fingerprint of the client certificate the host requires (over the gateway's TLS)" })
  clientCertSha256?: string | null;
}

@InputType()
export class BindDistributorHostInput {
  @Field(() => String, { description: 'A mapped hostname' })
  hostname: string;

  @Field(() => [String], { nullable: true, description: 'Source CIDR ranges the host admits; empty or null: any address' })
  sourceRanges?: string[] | null;

  @Field(() => String, { nullable: true, description: 'SHA-256 fingerprint (hex, colons allowed) of the client certificate the host requires; null: none' })
  clientCertSha256?: string | null;
}

@InputType()
export class SetDistributorWalletInput {
  @Field(() => ID)
  distributorId: string;

  @Field(() => String, { description: 'Numeric EVM chain id' })
  chainId: string;

  @Field(() => String, { description: 'Where tokens land in `hold` delivery on that chain' })
  address: string;
}

@InputType()
export class GrantShareClassInput {
  @Field(() => ID)
  distributorId: string;

  @Field(() => ID)
  shareClassId: string;

  @Field(() => DeliveryMode, { description: 'Granting again changes the delivery mode' })
  deliveryMode: DeliveryMode;
}

@InputType()
export class RevokeShareClassInput {
  @Field(() => ID)
  distributorId: string;

  @Field(() => ID)
  shareClassId: string;
}

export const DistributorPage = PageOf(Distributor, 'DistributorPage');
