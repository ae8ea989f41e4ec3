import { conflict } from '../../common/errors';
import type { WalletRecoveryEffect, WalletUnfreezeEffect } from '../investor';
import type { ForcedTransferEffect } from './forced-transfer-effect';
import type { HoldingAdjustmentEffect } from './holding-adjustment-effect';
import type { PendingNavArgs } from '../nav';
import type { NavCorrectionEffect } from '../correction';
import type { EligibilityRulesArgs, InvestorCategoryArgs } from '../eligibility';

/**
 * A pending NAV's confirmation binds the NAV and the move the approver saw (its previous confirmed
 * NAV, close and the move in percent); NavService.confirmPending refuses it once another NAV was
 * confirmed before it, and inserts exactly the bound NAV.
 */
export type NavConfirmationEffect = PendingNavArgs & { kind: 'nav_confirmation'; version: number };

/**
 * What a four-eyes request will do, bound when it is requested: one record type per kind, each
 * computed from the world by one function (InvestorWalletService.recoveryEffect,
 * ForcedTransfers.effect, holdingAdjustmentEffect) that runs at request time to bind it and again
 * at approval (and in the approval worker, for a delayed recovery) to compare. A difference is
 * refused `CONFLICT` naming what changed; otherwise the approved call runs from the bound record
 * alone, so what the approver saw is what happens (docs/approvals.md#a-request-binds-its-effect).
 *
 * `version` is the shape of the record: a reader refuses a version it does not know rather than
 * guess (a request of another version is asked again).
 */
/** A new ops principal with its roles; the token's first part is bound by its SHA-256 only (ops-principal-requests.ts). */
export interface OpsPrincipalArgs {
  name: string;
  roles: string[];
  firstPartSha256: string;
}
/** An ops principal's roles, from what they were to what they are to be. */
export interface OpsRolesArgs {
  principalId: string;
  name: string;
  from: string[];
  roles: string[];
}
/** A new token for an ops principal that lost its own. */
export interface OpsTokenResetArgs {
  principalId: string;
  name: string;
  firstPartSha256: string;
}
type Versioned<K extends string, A> = A & { kind: K; version: number };

export type ApprovalEffect =
  | WalletRecoveryEffect
  | HoldingAdjustmentEffect
  | ForcedTransferEffect
  | WalletUnfreezeEffect
  | NavConfirmationEffect
  | NavCorrectionEffect
  | Versioned<'ops_principal', OpsPrincipalArgs>
  | Versioned<'ops_roles', OpsRolesArgs>
  | Versioned<'ops_token_reset', OpsTokenResetArgs>
  | Versioned<'eligibility_rules', EligibilityRulesArgs>
  | Versioned<'investor_category', InvestorCategoryArgs>;

/** The version every effect written by this code has. */
export const EFFECT_VERSION = 1;

/** A pending NAV's arguments as the effect its confirmation binds. */
export const navConfirmationEffect = (nav: PendingNavArgs): NavConfirmationEffect => ({ ...nav, kind: 'nav_confirmation', version: EFFECT_VERSION });

type Fact<E> = readonly [label: string, read: (effect: E) => string];
type FactsByKind = { [K in ApprovalEffect['kind']]: readonly Fact<Extract<ApprovalEffect, { kind: K }>>[] };

const tokenOf = (e: { chainId: string; tokenAddress: string }) => `${e.tokenAddress} on chain ${e.chainId}`;

/**
 * What an approver approves, fact by fact, in words: the comparison at approval reads exactly these,
 * so a fact added to an effect and not here would go unchecked — each kind lists every field of its
 * record but `kind` and `version` (test/unit/approval-effect.test.ts holds the table to that).
 */
export const EFFECT_FACTS: FactsByKind = {
  forced_transfer: [
    ['the token', tokenOf],
    ['the share class', (e) => e.shareClassId],
    ["the token's decimals", (e) => String(e.decimals)],
    ['the sender', (e) => e.fromInvestorId],
    ["the sender's wallet", (e) => e.fromWallet],
    ['the receiver', (e) => e.toInvestorId],
    ["the receiver's wallet", (e) => e.toWallet],
    ['the quantity', (e) => e.quantity],
    ['the token units', (e) => e.units],
  ],
  wallet_recovery: [
    ['the investor', (e) => e.investorId],
    ['the chain', (e) => e.chainId],
    ['the lost wallet', (e) => e.lostWallet],
    ['the lost wallet record', (e) => e.lostWalletId],
    ['the new wallet', (e) => e.newWallet],
    ["the investor's identity", (e) => e.identity],
    ['the tokens to recover', (e) => (e.tokens.length ? e.tokens.map((t) => `${t.quantity} of ${t.tokenAddress}`).join(', ') : 'none')],
  ],
  wallet_unfreeze: [
    ['the freeze', (e) => e.freezeId],
    ['the investor', (e) => e.investorId],
    ['the share class', (e) => e.shareClassId],
    ['the token', tokenOf],
    ['the wallet', (e) => e.wallet],
  ],
  holding_adjustment: [
    ['the investor', (e) => e.investorId],
    ['the share class', (e) => e.shareClassId],
    ['the quantity', (e) => e.quantity],
    ['the balance of the holding', (e) => e.balanceBefore],
    ['the balance after the adjustment', (e) => e.balanceAfter],
    ['the settlement date', (e) => (e.settledAt === null ? 'the time it runs' : new Date(e.settledAt).toISOString())],
    ['what moves on chain', (e) => (e.onChain === null ? 'nothing' : String(e.onChain))],
  ],
  nav_confirmation: [
    ['the share class', (e) => e.shareClassId],
    ['the entry', (e) => e.entryId],
    ['the close', (e) => e.close],
    ['the open', (e) => e.open],
    ['the high', (e) => e.high],
    ['the low', (e) => e.low],
    ['the volume', (e) => e.volume],
    ['the currency', (e) => e.currency],
    ['the valuation time', (e) => new Date(e.publishedAt).toISOString()],
    ['the previous confirmed NAV', (e) => e.previousEntryId],
    ['the previous close', (e) => e.previousClose],
    ['the move', (e) => (e.movePercent === null ? 'a move from 0' : `${e.movePercent}%`)],
    ['the tolerance', (e) => `${e.toleranceBps} bps`],
  ],
  nav_correction: [
    ['the NAV', (e) => e.navId],
    ['the share class', (e) => e.shareClassId],
    ['the entry', (e) => e.entryId],
    ["the NAV's close", (e) => e.close],
    ['the corrected close', (e) => e.correctedClose],
    ['the tolerance', (e) => `${e.toleranceBps} bps`],
    ['the error', (e) => `${e.errorBps} bps`],
    ['whether the error is above the tolerance', (e) => (e.aboveTolerance ? 'above' : 'within')],
    ['the orders to re-price', (e) => String(e.repriced)],
    ['what the re-pricing writes', (e) => e.repricedDigest],
    ['the orders to compensate', (e) => String(e.compensated)],
    ['what the compensation books', (e) => e.compensationDigest],
  ],
  ops_principal: [
    ['the name', (e) => e.name],
    ['the roles', (e) => e.roles.join(', ')],
    ["the token's first part", (e) => e.firstPartSha256],
  ],
  ops_roles: [
    ['the principal', (e) => e.principalId],
    ['the name', (e) => e.name],
    ['the roles it had', (e) => e.from.join(', ')],
    ['the roles', (e) => e.roles.join(', ')],
  ],
  ops_token_reset: [
    ['the principal', (e) => e.principalId],
    ['the name', (e) => e.name],
    ["the token's first part", (e) => e.firstPartSha256],
  ],
  eligibility_rules: [
    ['the rule set', (e) => e.code],
    ['the allowed countries', (e) => (e.allowedCountries === null ? 'any' : e.allowedCountries.join(', '))],
    ['the blocked countries', (e) => e.blockedCountries.join(', ') || 'none'],
    ['the allowed categories', (e) => (e.allowedCategories === null ? 'any' : e.allowedCategories.join(', '))],
    ['the maximum of holders', (e) => String(e.maxHolders ?? 'none')],
    ['the maximum holding per investor', (e) => e.maxHoldingPerInvestor ?? 'none'],
    ['the supply cap', (e) => e.supplyCap ?? 'none'],
    ['the holders it leaves ineligible', (e) => e.ineligibleHolders.join('; ') || 'none'],
  ],
  investor_category: [
    ['the investor', (e) => e.investorId],
    ['the category it had', (e) => e.from ?? 'none'],
    ['the category', (e) => e.to],
  ],
};

function facts(effect: ApprovalEffect): [string, string][] {
  const table = EFFECT_FACTS[effect.kind] as readonly Fact<ApprovalEffect>[];
  return table.map(([label, read]) => [label, read(effect)]);
}

/** Each fact of `bound` that `now` says otherwise, in words ("the receiver's wallet changed from 0x… to 0x…"). */
export function effectChanges(bound: ApprovalEffect, now: ApprovalEffect): string[] {
  if (bound.kind !== now.kind) return [`the kind changed from ${bound.kind} to ${now.kind}`];
  const current = new Map(facts(now));
  return facts(bound).flatMap(([label, was]) => {
    const is = current.get(label)!;
    return was.toLowerCase() === is.toLowerCase() ? [] : [`${label} changed from ${was} to ${is}`];
  });
}

/** Refuses `CONFLICT`, naming every change, when the world no longer gives the bound effect. */
export function refuseChangedEffect(requestId: string, bound: ApprovalEffect, now: ApprovalEffect): void {
  const changes = effectChanges(bound, now);
  if (changes.length) throw conflict(`approval request ${requestId} no longer does what was requested: ${changes.join('; ')} since the request`);
}

/**
 * The request's bound effect, or `CONFLICT` when it has none this code reads: a request made before
 * requests bound their effect (Migration20261129400000), or of another version, is not approved on a
 * target looked up now; it is rejected and asked again.
 */
export function boundEffect(request: { id: string; kind: string; effect?: ApprovalEffect | null }): ApprovalEffect {
  const effect = request.effect;
  if (!effect || effect.version !== EFFECT_VERSION || effect.kind !== request.kind)
    throw conflict(`approval request ${request.id} does not bind what it will do (it was made before requests did): reject it and request it again`);
  return effect;
}
