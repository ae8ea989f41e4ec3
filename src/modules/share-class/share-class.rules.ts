import { DECIMAL_COLUMN } from '../../common/money';
import { badRequest } from '../../common/errors';
import { bps, currencyCode, decimal, intInRange, nonNegativeDecimal, required, statusWord } from '../../common/validate';
import type { BankDetails, ShareClassDetails, ShareClassMeta, ShareClassMetrics, ShareClassOverview, SubRedemption } from './share-class.parts';

/*
 * The rules of a share class's fields, one function per documented part. Each returns a clean
 * copy (trimmed strings, canonical decimals) or throws `<part>.<field> …` naming what is wrong.
 */

const text = (value: unknown, field: string) => required(value, field).trim();

/** A supply-side platform identifier: lower-case letters, digits, `-` and `_`. */
export function provider(value: unknown): string {
  const p = text(value, 'provider');
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(p)) throw badRequest('provider must be a lower-case identifier such as supply-sim');
  return p;
}

/** A lifecycle status word; active share classes are `active`. */
export const status = (value: unknown) => statusWord(value, 'status');

export const FEE_FIELDS = ['feesSubBps', 'feesRedBps', 'feesMgmtBps', 'feesPerfBps', 'feesWatermarkBps'] as const;
export const fee = bps;

export const meta = (m: ShareClassMeta): ShareClassMeta => ({ name: text(m.name, 'meta.name'), manager: text(m.manager, 'meta.manager') });

export function details(d: ShareClassDetails): ShareClassDetails {
  const isin = text(d.isin, 'details.isin').toUpperCase();
  if (!/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(isin)) throw badRequest('details.isin must be an ISIN (2 letters, 9 alphanumerics, 1 check digit)');
  const min = d.minimumInvestment_fiat;
  if (typeof min !== 'number' || !Number.isFinite(min) || min < 0) throw badRequest('details.minimumInvestment_fiat must be >= 0');
  return { isin, jurisdiction: text(d.jurisdiction, 'details.jurisdiction'), minimumInvestment_fiat: min };
}

export function metrics(m: ShareClassMetrics): ShareClassMetrics {
  return {
    apy_bps: intInRange(m.apy_bps, 'metrics.apy_bps', -100_000, 1_000_000),
    tvl_fiat: nonNegativeDecimal(m.tvl_fiat, 'metrics.tvl_fiat', DECIMAL_COLUMN),
    change7D: decimal(m.change7D, 'metrics.change7D', DECIMAL_COLUMN),
    currency: currencyCode(m.currency, 'metrics.currency'),
    maturity_days: intInRange(m.maturity_days, 'metrics.maturity_days', -1, 100_000),
  };
}

export const overview = (o: ShareClassOverview): ShareClassOverview => ({
  assetClass: text(o.assetClass, 'overview.assetClass'),
  description: text(o.description, 'overview.description'),
  riskLevel: intInRange(o.riskLevel, 'overview.riskLevel', 1, 7),
});

export const subRedemption = (s: SubRedemption): SubRedemption => ({
  subFreq: intInRange(s.subFreq, 'subRedemption.subFreq', 0, 3650),
  redFreq: intInRange(s.redFreq, 'subRedemption.redFreq', 0, 3650),
  cutOffTime_days: intInRange(s.cutOffTime_days, 'subRedemption.cutOffTime_days', -365, 365),
  lockup: intInRange(s.lockup, 'subRedemption.lockup', 0, 36500),
  eligibleInvestors: text(s.eligibleInvestors, 'subRedemption.eligibleInvestors'),
  distributionPolicy: text(s.distributionPolicy, 'subRedemption.distributionPolicy'),
});

export function bank(b: BankDetails): BankDetails {
  const swiftCode = text(b.swiftCode, 'bank.swiftCode').toUpperCase();
  if (!/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(swiftCode)) throw badRequest('bank.swiftCode must be a BIC of 8 or 11 characters');
  return {
    accountHolderName: text(b.accountHolderName, 'bank.accountHolderName'),
    accountNumber: text(b.accountNumber, 'bank.accountNumber'),
    accountType: text(b.accountType, 'bank.accountType'),
    bankName: text(b.bankName, 'bank.bankName'),
    swiftCode,
    currency: currencyCode(b.currency, 'bank.currency'),
  };
}
