import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Audited } from '../../persistence/audited.entity';
import { DecimalScalar } from '../../common/scalars';
import { DECIMAL_COLUMN } from '../../common/money';

/**
 * Who may hold a share class, as data: the rule set a share class's `eligibleInvestors` code names
 * (surface R shows the code). A code no rule set has restricts nothing, so classes provisioned
 * before rule sets keep taking the orders they took. Changed only through a four-eyes request
 * (`requestEligibilityRules`). Which rule the gateway checks and which the token enforces:
 * docs/compliance.md.
 */
@ObjectType({ description: "A share class's eligibility rules, named by its `eligibleInvestors` code" })
@Entity({ tableName: 'eligibility_rule_set' })
export class EligibilityRuleSet extends Audited {
  @Field(() => String, { description: 'The code share classes name in `subRedemption.eligibleInvestors`' })
  @PrimaryKey({ type: 'text' })
  code: string;

  @Field(() => [String], { nullable: true, description: 'ISO 3166-1 alpha-2 countries an investor may be from; null: any not blocked' })
  @Property({ type: 'json', nullable: true })
  allowedCountries: string[] | null = null;

  @Field(() => [String], { description: 'ISO 3166-1 alpha-2 countries an investor may not be from' })
  @Property({ type: 'json' })
  blockedCountries: string[] = [];

  @Field(() => [String], { nullable: true, description: 'Investor categories admitted; null: any' })
  @Property({ type: 'json', nullable: true })
  allowedCategories: string[] | null = null;

  @Field(() => Int, { nullable: true, description: 'Holders of the class at most; null: no limit' })
  @Property({ type: 'integer', nullable: true })
  maxHolders: number | null = null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens one investor may hold at most; null: no limit' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  maxHoldingPerInvestor: string | null = null;

  @Field(() => DecimalScalar, { nullable: true, description: 'Tokens of the class in issue at most; null: no cap' })
  @Property({ type: 'decimal', ...DECIMAL_COLUMN, nullable: true })
  supplyCap: string | null = null;
}

/** The rules as values, what a request binds and the check reads. */
export interface EligibilityRules {
  code: string;
  allowedCountries: string[] | null;
  blockedCountries: string[];
  allowedCategories: string[] | null;
  maxHolders: number | null;
  maxHoldingPerInvestor: string | null;
  supplyCap: string | null;
}
