import { ISO_3166_ALPHA2, ISO_4217 } from '../../../src/common/iso-codes';
import { SHARE_CLASS_STATUSES } from '../../../src/modules/share-class/share-class-statuses';
import type { CreateShareClassInput, NavAssetClass, ShareClassFormQuery } from '../generated/graphql';

/*
 * The share-class form's fields: every documented field of a share class by path and kind, grouped
 * as the description groups them, the closed lists it chooses from, and the mapping between the
 * form's text values and the API's input (ShareClassForm.tsx draws them).
 */

/**
 * `currency` and `country`: a choice from the ISO list the gateway checks against (src/common/iso-codes.ts);
 * `ruleSet`: one of the eligibility rule sets' codes (EligibilityRules.tsx).
 */
export type Kind = 'text' | 'int' | 'number' | 'currency' | 'country' | 'ruleSet';
export type Spec = [path: string, label: string, kind: Kind, hint?: string];

export const GROUPS: { legend: string; fields: Spec[] }[] = [
  {
    legend: 'Share class',
    fields: [
      ['currency', 'Currency', 'currency'],
      ['provider', 'Supply-side platform', 'text', 'e.g. supply-sim'],
    ],
  },
  {
    legend: 'Name',
    fields: [
      ['meta.name', 'Name', 'text'],
      ['meta.manager', 'Manager', 'text'],
    ],
  },
  {
    legend: 'Fees (basis points, 100 = 1 %)',
    fields: [
      ['feesSubBps', 'Subscription fee', 'int'],
      ['feesRedBps', 'Redemption fee', 'int'],
      ['feesMgmtBps', 'Management fee', 'int'],
      ['feesPerfBps', 'Performance fee', 'int'],
      ['feesWatermarkBps', 'High watermark', 'int'],
    ],
  },
  {
    legend: 'Details',
    fields: [
      ['details.isin', 'ISIN', 'text', 'ISO 6166, e.g. LU2900000030'],
      ['details.jurisdiction', 'Jurisdiction', 'country'],
      ['details.minimumInvestment_fiat', 'Minimum investment', 'number'],
    ],
  },
  {
    legend: 'Metrics',
    fields: [
      ['metrics.apy_bps', 'APY (bps)', 'int'],
      ['metrics.tvl_fiat', 'TVL', 'text'],
      ['metrics.change7D', '7-day change', 'text'],
      ['metrics.currency', 'Metrics currency', 'currency'],
      ['metrics.maturity_days', 'Maturity (days)', 'int', '-1: open-ended'],
    ],
  },
  {
    legend: 'Overview',
    fields: [
      ['overview.assetClass', 'Asset class', 'text'],
      ['overview.description', 'Description', 'text'],
      ['overview.riskLevel', 'Risk level', 'int', '1 to 7'],
    ],
  },
  {
    legend: 'Subscriptions and redemptions',
    fields: [
      ['subRedemption.subFreq', 'Subscription frequency (business days)', 'int', '0 or 1: every business day'],
      ['subRedemption.redFreq', 'Redemption frequency (business days)', 'int'],
      ['subRedemption.cutOffTime_days', 'Cut-off (business days from dealing)', 'int', '0: on the dealing day, -1: the day before'],
      ['subRedemption.lockup', 'Lock-up (days)', 'int', '0: none'],
      ['subRedemption.eligibleInvestors', 'Eligible investors', 'ruleSet'],
    ],
  },
  {
    legend: 'Bank account',
    fields: [
      ['bank.accountHolderName', 'Account holder', 'text'],
      ['bank.accountNumber', 'Account number', 'text', 'an IBAN when the type is IBAN'],
      ['bank.accountType', 'Account type', 'text', 'e.g. IBAN'],
      ['bank.bankName', 'Bank', 'text'],
      ['bank.swiftCode', 'SWIFT / BIC', 'text', 'ISO 9362, 8 or 11 characters'],
      ['bank.currency', 'Bank currency', 'currency'],
    ],
  },
];

export type Values = Record<string, string>;

/** The description's free-text `subRedemption.distributionPolicy`, carried through unchanged (see inputOf). */
const POLICY_TEXT = 'subRedemption.distributionPolicy';

/** What a new share class starts with: the neutral choices, so only what is particular to it is typed. */
export const NEW: Values = {
  provider: 'supply-sim',
  feesSubBps: '0',
  feesRedBps: '0',
  feesMgmtBps: '0',
  feesPerfBps: '0',
  feesWatermarkBps: '0',
  'details.minimumInvestment_fiat': '0',
  'metrics.apy_bps': '0',
  'metrics.tvl_fiat': '0',
  'metrics.change7D': '0',
  'metrics.maturity_days': '-1',
  'subRedemption.subFreq': '1',
  'subRedemption.redFreq': '1',
  'subRedemption.cutOffTime_days': '0',
  'subRedemption.lockup': '0',
  'bank.accountType': 'IBAN',
  navAssetClass: 'other',
  navToleranceBps: '',
  dealingWeekdays: '1,2,3,4,5',
};

/**
 * CSSF 24/856's fund types and the tolerance each sets by default, as the gateway's
 * NAV_TOLERANCE_BPS has them (src/modules/share-class/nav-tolerance.ts, which the page cannot
 * import: it registers a GraphQL enum); the test of this form reads the tolerance back from the gateway.
 */
export const NAV_ASSET_CLASSES: [NavAssetClass, string, number][] = [
  ['money_market', 'Money market', 20],
  ['bond', 'Bond', 50],
  ['mixed', 'Mixed', 50],
  ['equity', 'Equity', 100],
  ['other', 'Other', 100],
];
export const defaultToleranceOf = (c: string) => NAV_ASSET_CLASSES.find(([v]) => v === c)?.[2] ?? 100;

/** The statuses a share class is given, the gateway's list (a stored word outside it is kept as a choice). */
export const STATUSES: string[] = [...SHARE_CLASS_STATUSES];
export const CURRENCIES = [...ISO_4217].sort();
export const COUNTRIES = [...ISO_3166_ALPHA2].sort();

/**
 * The GraphQL input of the typed values: nested by path, numbers as numbers. Typed as the API's
 * input; a field left empty goes as sent (an empty text, a null number) for the API to refuse.
 */
export type ShareClassFields = Omit<CreateShareClassInput, 'fundId' | 'status'>;
export function inputOf(values: Values): ShareClassFields {
  const out: Record<string, unknown> = {};
  for (const { fields } of GROUPS) {
    for (const [path, , kind] of fields) {
      const raw = (values[path] ?? '').trim();
      const value = kind === 'int' || kind === 'number' ? (raw === '' ? null : Number(raw)) : raw;
      const [head, leaf] = path.split('.');
      if (leaf) ((out[head] ??= {}) as Record<string, unknown>)[leaf] = value;
      else out[head] = value;
    }
  }
  // Not a field of the form: the income policy the gateway acts on is the one the Distributions
  // page sets (setDistributionPolicy). The description's free text is kept as stored; a new class
  // accumulates until that page says otherwise, and says so.
  ((out.subRedemption ??= {}) as Record<string, unknown>).distributionPolicy = values[POLICY_TEXT] || 'Accumulating';
  out.navAssetClass = values.navAssetClass;
  // Empty: the asset class's tolerance (a class's own stays until another is typed).
  const tolerance = (values.navToleranceBps ?? '').trim();
  out.navToleranceBps = tolerance === '' ? null : Number(tolerance);
  out.dealingWeekdays = weekdaysOf(values.dealingWeekdays);
  return out as ShareClassFields;
}

/** The form's values of a stored share class. */
export function valuesOf(sc: ShareClassFormQuery['shareClass']): Values {
  const values: Values = { status: sc.status };
  const record = sc as unknown as Record<string, unknown>;
  for (const { fields } of GROUPS) {
    for (const [path] of fields) {
      const [head, leaf] = path.split('.');
      const v = leaf ? (record[head] as Record<string, unknown>)[leaf] : record[head];
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a share class's form fields are numbers and texts
      values[path] = v == null ? '' : String(v);
    }
  }
  values[POLICY_TEXT] = sc.subRedemption.distributionPolicy;
  values.navAssetClass = sc.navAssetClass;
  // The tolerance in force: shown as the class's own only where it is not its asset class's.
  values.navToleranceBps = sc.navToleranceBps === defaultToleranceOf(sc.navAssetClass) ? '' : String(sc.navToleranceBps);
  values.dealingWeekdays = sc.dealingWeekdays.join(',');
  return values;
}

export const weekdaysOf = (v: string | undefined): number[] => (v ? v.split(',').map(Number) : []);

/** A choice from a closed list, the stored value kept as a choice when it is outside it. */
export const choices = (list: string[], current: string, none = 'Choose…'): [string, string][] => [
  ...(current === '' ? [['', none] as [string, string]] : []),
  ...(current && !list.includes(current) ? [[current, current] as [string, string]] : []),
  ...list.map((c): [string, string] => [c, c]),
];
