import { DECIMAL_COLUMN } from '../../common/money';
import { badRequest } from '../../common/errors';
import {
  bic,
  bps,
  countryCode,
  currencyCode,
  decimal,
  iban,
  intInRange,
  isin,
  nonNegativeDecimal,
  refused,
  required,
  statusWord,
  type Problems,
} from '../../common/validate';
import { NavAssetClass } from './nav-tolerance';
import { SHARE_CLASS_STATUSES } from './share-class-statuses';
import type { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';

/*
 * The rules of a share class's fields, one function per documented part. Each returns a clean
 * copy (trimmed strings, canonical decimals), keeping a refusal `<part>.<field> …` in `p` for
 * every field that is wrong (the caller settles them all at once).
 */

const text = (value: unknown, field: string) => required(value, field).trim();

/** A supply-side platform identifier: lower-case letters, digits, `-` and `_`. */
export function provider(value: unknown): string {
  const p = text(value, 'provider');
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(p)) throw badRequest('provider must be a lower-case identifier such as supply-sim');
  return p;
}

/** A lifecycle status, one of SHARE_CLASS_STATUSES; active share classes are `active`. */
export function status(value: unknown): string {
  const word = statusWord(value, 'status');
  if (!(SHARE_CLASS_STATUSES as readonly string[]).includes(word)) throw refused('status', `must be one of ${SHARE_CLASS_STATUSES.join(', ')}`);
  return word;
}

/** One of the CSSF 24/856 fund types (the GraphQL enum admits only these; this guards other callers). */
export function navAssetClass(value: unknown): NavAssetClass {
  if (!Object.values(NavAssetClass).includes(value as NavAssetClass))
    throw badRequest(`navAssetClass must be one of ${Object.values(NavAssetClass).join(', ')}`);
  return value as NavAssetClass;
}

export const FEE_FIELDS = ['feesSubBps', 'feesRedBps', 'feesMgmtBps', 'feesPerfBps', 'feesWatermarkBps'] as const;
export const fee = bps;

type Part<T> = (value: T, p: Problems) => T;

export const meta: Part<ShareClassMeta> = (m, p) => ({
  name: p.take('meta.name', () => text(m.name, 'meta.name')),
  manager: p.take('meta.manager', () => text(m.manager, 'meta.manager')),
});

export const details: Part<ShareClassDetails> = (d, p) => ({
  isin: p.take('details.isin', () => isin(d.isin, 'details.isin')),
  jurisdiction: p.take('details.jurisdiction', () => countryCode(d.jurisdiction, 'details.jurisdiction')),
  minimumInvestment_fiat: p.take('details.minimumInvestment_fiat', () => {
    const min = d.minimumInvestment_fiat;
    if (typeof min !== 'number' || !Number.isFinite(min) || min < 0) throw badRequest('details.minimumInvestment_fiat must be >= 0');
    return min;
  }),
});

export const metrics: Part<ShareClassMetrics> = (m, p) => ({
  apy_bps: p.take('metrics.apy_bps', () => intInRange(m.apy_bps, 'metrics.apy_bps', -100_000, 1_000_000)),
  tvl_fiat: p.take('metrics.tvl_fiat', () => nonNegativeDecimal(m.tvl_fiat, 'metrics.tvl_fiat', DECIMAL_COLUMN)),
  change7D: p.take('metrics.change7D', () => decimal(m.change7D, 'metrics.change7D', DECIMAL_COLUMN)),
  currency: p.take('metrics.currency', () => currencyCode(m.currency, 'metrics.currency')),
  maturity_days: p.take('metrics.maturity_days', () => intInRange(m.maturity_days, 'metrics.maturity_days', -1, 100_000)),
});

export const overview: Part<ShareClassOverview> = (o, p) => ({
  assetClass: p.take('overview.assetClass', () => text(o.assetClass, 'overview.assetClass')),
  description: p.take('overview.description', () => text(o.description, 'overview.description')),
  riskLevel: p.take('overview.riskLevel', () => intInRange(o.riskLevel, 'overview.riskLevel', 1, 7)),
});

export const subRedemption: Part<SubRedemption> = (s, p) => ({
  subFreq: p.take('subRedemption.subFreq', () => intInRange(s.subFreq, 'subRedemption.subFreq', 0, 3650)),
  redFreq: p.take('subRedemption.redFreq', () => intInRange(s.redFreq, 'subRedemption.redFreq', 0, 3650)),
  cutOffTime_days: p.take('subRedemption.cutOffTime_days', () => intInRange(s.cutOffTime_days, 'subRedemption.cutOffTime_days', -365, 365)),
  lockup: p.take('subRedemption.lockup', () => intInRange(s.lockup, 'subRedemption.lockup', 0, 36500)),
  eligibleInvestors: p.take('subRedemption.eligibleInvestors', () => text(s.eligibleInvestors, 'subRedemption.eligibleInvestors')),
  distributionPolicy: p.take('subRedemption.distributionPolicy', () => text(s.distributionPolicy, 'subRedemption.distributionPolicy')),
});

/**
 * A dealing week: the ISO weekdays (1 Monday … 7 Sunday) a share class deals on, at least one,
 * each once, ascending.
 */
export function dealingWeekdays(value: unknown): number[] {
  const days = Array.isArray(value) ? value : [];
  if (!days.length || !days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7))
    throw badRequest('dealingWeekdays must be ISO weekdays from 1 (Monday) to 7 (Sunday), at least one');
  return [...new Set(days as number[])].sort((a, b) => a - b);
}

/** Bank details; an account of type `IBAN` is held to ISO 13616 (other types are taken as typed). */
export const bank: Part<BankDetails> = (b, p) => {
  const isIban = typeof b.accountType === 'string' && b.accountType.trim().toUpperCase() === 'IBAN';
  return {
    accountHolderName: p.take('bank.accountHolderName', () => text(b.accountHolderName, 'bank.accountHolderName')),
    accountNumber: p.take('bank.accountNumber', () => (isIban ? iban(b.accountNumber, 'bank.accountNumber') : text(b.accountNumber, 'bank.accountNumber'))),
    accountType: p.take('bank.accountType', () => text(b.accountType, 'bank.accountType')),
    bankName: p.take('bank.bankName', () => text(b.bankName, 'bank.bankName')),
    swiftCode: p.take('bank.swiftCode', () => bic(b.swiftCode, 'bank.swiftCode')),
    currency: p.take('bank.currency', () => currencyCode(b.currency, 'bank.currency')),
  };
};
