import { Field, Int, ObjectType } from 'type-graphql';
import { EpochMs } from '../../common/scalars';

@ObjectType({ description: 'A surface-O key and secret, as issued: the secret is shown this once only.' })
export class IssuedApiCredential {
  @Field(() => String)
  apiKey: string;

  @Field(() => String, { description: 'Shown once; only a slow salted hash is kept.' })
  apiSecret: string;

  @Field(() => String, { description: '`DT######`' })
  distributorId: string;

  @Field(() => String, { description: 'The same distributor on surface O: `PT######`' })
  partnerId: string;

  @Field(() => EpochMs)
  createdAt: Date;
}

@ObjectType({ description: 'A surface-O credential without its secret.' })
export class ApiCredentialView {
  @Field(() => String)
  apiKey: string;

  @Field(() => EpochMs)
  createdAt: Date;

  @Field(() => String)
  createdBy: string;

  @Field(() => EpochMs, { nullable: true })
  revokedAt?: Date;
}

@ObjectType()
export class TokenPairResult {
  @Field(() => String)
  accessToken: string;

  @Field(() => String)
  refreshToken: string;

  @Field(() => String, { description: '`Bearer`' })
  tokenType: string;

  @Field(() => Int, { description: 'Seconds the access token is valid: 900' })
  expiresIn: number;
}

@ObjectType({ description: 'An ops console token, as issued: the token is shown this once only.' })
export class IssuedOpsToken {
  @Field(() => String, { description: "The principal's name (normalised), which the console records its actions under" })
  name: string;

  @Field(() => String, { description: '`ops_…`, shown once; only its SHA-256 is kept.' })
  token: string;

  @Field(() => EpochMs, { description: 'Refused after this (OPS_TOKEN_TTL_SECONDS after issue)' })
  expiresAt: Date;

  @Field(() => [String], { description: '`viewer`, `operator`, `approver`, `admin`' })
  roles: string[];
}

@ObjectType({ description: 'The caller as the gateway authenticated it: what its records are stamped with, and what it may do.' })
export class Me {
  @Field(() => String, { description: '`ops`, `distributor`' })
  kind: string;

  @Field(() => String, { description: '`ops:<principal name>`, `distributor:DT…`, `partner:PT…`' })
  principal: string;

  @Field(() => String, { nullable: true, description: "An ops principal's name" })
  name: string | null;

  @Field(() => [String], { description: "An ops caller's roles; none for a distributor" })
  roles: string[];

  @Field(() => [String], {
    description:
      "The ops mutations, and the reads that need more than `viewer`, this caller's roles allow (src/access/ops-roles.ts): what the console offers it. None for a distributor",
  })
  mayCall: string[];
}

@ObjectType({ description: 'A mutation that ends a duty-matrix action, with the role it needs.' })
export class OpsDutyStep {
  @Field(() => String)
  mutation: string;

  @Field(() => String, { description: '`viewer`, `operator`, `approver`, `admin`' })
  role: string;
}

@ObjectType({
  description: 'A row of the duty matrix (src/access/duties.ts): an action, whether a second principal must take part, and who counts as the other party.',
})
export class OpsDuty {
  @Field(() => String)
  action: string;

  @Field(() => String, { description: '`second party`, `four-eyes request` or `one principal`' })
  rule: string;

  @Field(() => String, { description: "The steps whose principals are the action's parties." })
  parties: string;

  @Field(() => String, { description: 'Who counts as the other party (or, for one principal, why none is needed).' })
  other: string;

  @Field(() => [OpsDutyStep], { description: 'The mutations that end the action, each with its role.' })
  doneBy: OpsDutyStep[];
}
