import { Field, Int, ObjectType } from 'type-graphql';
import { DecimalScalar, EpochMs } from '../../common/scalars';
import type { ApprovalEffect } from './approval-effect';

/* What a request binds (approval-effect.ts), as the approver sees it: one object per kind, under one type. */

@ObjectType('ForcedTransferEffect', { description: 'What a forced transfer will do: that token, from that wallet to that one, that quantity' })
export class ForcedTransferEffectView {
  @Field(() => String)
  chainId: string;

  @Field(() => String, { description: 'The token contract (lower case)' })
  tokenAddress: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => Int)
  decimals: number;

  @Field(() => String)
  fromInvestorId: string;

  @Field(() => String)
  fromWallet: string;

  @Field(() => String)
  toInvestorId: string;

  @Field(() => String)
  toWallet: string;

  @Field(() => DecimalScalar)
  quantity: string;

  @Field(() => String, { description: 'The quantity in token units, as sent to forcedTransfer' })
  units: string;
}

@ObjectType('RecoveredToken', { description: 'A token a recovery moves, all of what the lost wallet holds of it' })
export class RecoveredTokenView {
  @Field(() => String)
  tokenAddress: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => Int)
  decimals: number;

  @Field(() => String)
  units: string;

  @Field(() => DecimalScalar)
  quantity: string;
}

@ObjectType('WalletRecoveryEffect', { description: "What a wallet recovery will do: that lost wallet's tokens to that new wallet" })
export class WalletRecoveryEffectView {
  @Field(() => String)
  investorId: string;

  @Field(() => String)
  chainId: string;

  @Field(() => String)
  lostWalletId: string;

  @Field(() => String)
  lostWallet: string;

  @Field(() => String)
  newWallet: string;

  @Field(() => String, { description: "The investor's ONCHAINID, of which the new wallet becomes a management key" })
  identity: string;

  @Field(() => [RecoveredTokenView])
  tokens: RecoveredTokenView[];
}

@ObjectType('HoldingAdjustmentEffect', {
  description: 'What a holding adjustment will do: the holding from that balance to that one (the register only: nothing moves on chain)',
})
export class HoldingAdjustmentEffectView {
  @Field(() => String)
  investorId: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => DecimalScalar, { description: 'The delta, signed' })
  quantity: string;

  @Field(() => DecimalScalar)
  balanceBefore: string;

  @Field(() => DecimalScalar)
  balanceAfter: string;

  @Field(() => EpochMs, { nullable: true, description: 'The lot’s settlement date; null: the time it runs' })
  settledAt: number | null;
}

@ObjectType('EligibilityRulesEffect', {
  description: 'What a rule-set request will do: the rules, and the holders they leave ineligible (they keep their tokens and may only redeem)',
})
export class EligibilityRulesEffectView {
  @Field(() => String)
  code: string;

  @Field(() => [String], { nullable: true })
  allowedCountries: string[] | null;

  @Field(() => [String])
  blockedCountries: string[];

  @Field(() => [String], { nullable: true })
  allowedCategories: string[] | null;

  @Field(() => Int, { nullable: true })
  maxHolders: number | null;

  @Field(() => DecimalScalar, { nullable: true })
  maxHoldingPerInvestor: string | null;

  @Field(() => DecimalScalar, { nullable: true })
  supplyCap: string | null;

  @Field(() => [String], { description: '`IN… (SC…): reason`' })
  ineligibleHolders: string[];
}

@ObjectType('InvestorCategoryEffect', { description: "What a category request will do: the investor's category from one to another" })
export class InvestorCategoryEffectView {
  @Field(() => String)
  investorId: string;

  @Field(() => String, { nullable: true })
  from: string | null;

  @Field(() => String)
  to: string;
}

@ObjectType('WalletUnfreezeEffect', { description: 'What an unfreeze will do: that wallet unfrozen on that token (`setAddressFrozen(wallet, false)`)' })
export class WalletUnfreezeEffectView {
  @Field(() => String)
  freezeId: string;

  @Field(() => String)
  investorId: string;

  @Field(() => String)
  shareClassId: string;

  @Field(() => String)
  chainId: string;

  @Field(() => String, { description: 'The token contract (lower case)' })
  tokenAddress: string;

  @Field(() => String, { description: 'The wallet (lower case)' })
  wallet: string;
}

@ObjectType('ApprovalEffect', {
  description: 'What a request binds at request time and approval checks the world against; exactly one of its kind’s fields is set',
})
export class ApprovalEffectView {
  @Field(() => Int, { description: 'The version of the bound record' })
  version: number;

  @Field(() => ForcedTransferEffectView, { nullable: true })
  forcedTransfer: ForcedTransferEffectView | null;

  @Field(() => WalletRecoveryEffectView, { nullable: true })
  walletRecovery: WalletRecoveryEffectView | null;

  @Field(() => HoldingAdjustmentEffectView, { nullable: true })
  holdingAdjustment: HoldingAdjustmentEffectView | null;

  @Field(() => EligibilityRulesEffectView, { nullable: true })
  eligibilityRules: EligibilityRulesEffectView | null;

  @Field(() => InvestorCategoryEffectView, { nullable: true })
  investorCategory: InvestorCategoryEffectView | null;

  @Field(() => WalletUnfreezeEffectView, { nullable: true })
  walletUnfreeze: WalletUnfreezeEffectView | null;
}

/** The bound record as its GraphQL view. */
export function effectView(effect: ApprovalEffect): ApprovalEffectView {
  return {
    version: effect.version,
    forcedTransfer: effect.kind === 'forced_transfer' ? effect : null,
    walletRecovery: effect.kind === 'wallet_recovery' ? effect : null,
    holdingAdjustment: effect.kind === 'holding_adjustment' ? effect : null,
    eligibilityRules: effect.kind === 'eligibility_rules' ? effect : null,
    investorCategory: effect.kind === 'investor_category' ? effect : null,
    walletUnfreeze: effect.kind === 'wallet_unfreeze' ? effect : null,
  };
}
