import { EFFECT_FACTS, effectChanges, type ApprovalEffect } from '../../src/modules/approval/approval-effect';

/*
 * The comparison at approval reads an effect through its kind's facts (approval-effect.ts): every
 * field a kind binds must be one of them, or a change of it would go unseen.
 */
const SAMPLES: ApprovalEffect[] = [
  {
    kind: 'forced_transfer',
    version: 1,
    chainId: '31337',
    tokenAddress: '0x00000000000000000000000000000000000000aa',
    shareClassId: 'SC000001',
    decimals: 6,
    fromInvestorId: 'IN000001',
    fromWallet: '0x00000000000000000000000000000000000000b1',
    toInvestorId: 'IN000002',
    toWallet: '0x00000000000000000000000000000000000000b2',
    quantity: '300',
    units: '300000000',
  },
  {
    kind: 'wallet_recovery',
    version: 1,
    investorId: 'IN000001',
    chainId: '31337',
    lostWalletId: '7',
    lostWallet: '0x00000000000000000000000000000000000000b1',
    newWallet: '0x00000000000000000000000000000000000000b3',
    identity: '0x00000000000000000000000000000000000000c1',
    tokens: [{ tokenAddress: '0x00000000000000000000000000000000000000aa', shareClassId: 'SC000001', decimals: 6, units: '800000000', quantity: '800' }],
  },
  {
    kind: 'holding_adjustment',
    version: 1,
    investorId: 'IN000001',
    shareClassId: 'SC000001',
    quantity: '25',
    balanceBefore: '100',
    balanceAfter: '125',
    settledAt: null,
    onChain: null,
  },
  {
    kind: 'wallet_unfreeze',
    version: 1,
    freezeId: '7',
    investorId: 'IN000001',
    shareClassId: 'SC000001',
    chainId: '31337',
    tokenAddress: '0x00000000000000000000000000000000000000aa',
    wallet: '0x00000000000000000000000000000000000000bb',
  },
  {
    kind: 'nav_confirmation',
    version: 1,
    shareClassId: 'SC000001',
    entryId: 'NV000301',
    close: '0.125',
    open: '0.125',
    high: '0.125',
    low: '0.125',
    volume: '0',
    currency: 'USD',
    publishedAt: 1795900000000,
    previousEntryId: 'NV000300',
    previousClose: '1.25',
    movePercent: '-90',
    toleranceBps: 100,
  },
  {
    kind: 'nav_correction',
    version: 1,
    navId: '12',
    shareClassId: 'SC000001',
    entryId: '20300603092930',
    close: '0.125',
    correctedClose: '1.25',
    toleranceBps: 100,
    errorBps: '9000',
    aboveTolerance: true,
    repriced: 3,
    repricedDigest: 'c'.repeat(64),
    compensated: 2,
    compensationDigest: 'd'.repeat(64),
  },
  { kind: 'ops_principal', version: 1, name: 'alice', roles: ['operator'], firstPartSha256: 'a'.repeat(64) },
  { kind: 'ops_roles', version: 1, principalId: '7', name: 'alice', from: ['operator'], roles: ['operator', 'approver'] },
  { kind: 'ops_token_reset', version: 1, principalId: '7', name: 'alice', firstPartSha256: 'b'.repeat(64) },
  {
    kind: 'eligibility_rules',
    version: 1,
    code: 'PROF',
    allowedCountries: ['LU'],
    blockedCountries: ['US'],
    allowedCategories: ['professional'],
    maxHolders: 99,
    maxHoldingPerInvestor: '100',
    supplyCap: '1000',
    ineligibleHolders: ['IN000001 (SC000001): country US is blocked by rule set PROF'],
  },
  { kind: 'investor_category', version: 1, investorId: 'IN000001', from: 'retail', to: 'professional' },
];

/** Another value of the same shape: one more token, a later number, the other boolean, a string with a digit more. */
function changed(value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return [...(value as unknown[]), value[0]];
  if (typeof value === 'number') return value + 1;
  if (value === null) return 1;
  return `${value as string}1`;
}

describe('The facts an approval compares', () => {
  it('has a sample of every kind', () => {
    expect(SAMPLES.map((s) => s.kind).sort()).toEqual(Object.keys(EFFECT_FACTS).sort());
  });

  it.each(SAMPLES.map((s) => [s.kind, s] as const))('%s: the same world gives no change, and a change of any bound field is named', (_kind, sample) => {
    expect(effectChanges(sample, { ...sample })).toEqual([]);
    for (const key of Object.keys(sample).filter((k) => k !== 'kind' && k !== 'version')) {
      const now = { ...sample, [key]: changed(sample[key as keyof typeof sample]) };
      expect([key, effectChanges(sample, now).length]).toEqual([key, 1]);
    }
  });

  it('names the fact, what it was and what it is', () => {
    const [transfer] = SAMPLES;
    expect(effectChanges(transfer, { ...transfer, toWallet: '0x00000000000000000000000000000000000000b9' } as ApprovalEffect)).toEqual([
      "the receiver's wallet changed from 0x00000000000000000000000000000000000000b2 to 0x00000000000000000000000000000000000000b9",
    ]);
  });
});
