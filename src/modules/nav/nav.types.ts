import { Field, InputType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';

@InputType()
export class PublishNavInput {
  @Field(() => String)
  shareClassId: string;

  @Field(() => DecimalScalar, { description: 'Closing price: the canonical NAV' })
  close: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Defaults to close' })
  open?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Defaults to close' })
  high?: string;

  @Field(() => DecimalScalar, { nullable: true, description: 'Defaults to close' })
  low?: string;

  @Field(() => DecimalScalar, { nullable: true })
  volume?: string;

  @Field(() => EpochMs, { nullable: true, description: 'When the NAV was struck; defaults to now' })
  publishedAt?: Date;
}
