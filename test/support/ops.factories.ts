import type { TestGateway } from './gateway';

/*
 * The ops console's side of a test: GraphQL operations with the ops token, and a complete share
 * class input as the console would send it.
 */

/** Runs an operation as ops; fails the test with the errors when there are any. */
export async function asOps<T = any>(gw: TestGateway, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<T> {
  const res = await gw.graphql<T>(query, variables, { token: await gw.opsToken(), headers });
  if (res.body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.body.errors)}`);
  return res.body.data as T;
}

/** Runs an operation as ops and returns its first error (message and extensions.code). */
export async function opsError(gw: TestGateway, query: string, variables?: Record<string, unknown>): Promise<{ message: string; code: string }> {
  const res = await gw.graphql(query, variables, { token: await gw.opsToken() });
  const error = res.body.errors?.[0];
  if (!error) throw new Error(`expected an error, got ${JSON.stringify(res.body.data)}`);
  return { message: error.message, code: error.extensions?.code };
}

export function shareClassInput(fundId: string, over: Record<string, unknown> = {}) {
  return {
    fundId,
    currency: 'EUR',
    provider: 'supply-sim',
    feesSubBps: 25,
    feesRedBps: 10,
    feesMgmtBps: 15,
    feesPerfBps: 0,
    feesWatermarkBps: 0,
    meta: { name: 'Ops Class I', manager: 'Ops Manager S.A.' },
    details: { isin: 'LU2900000030', jurisdiction: 'LU', minimumInvestment_fiat: 5000 },
    metrics: { apy_bps: 410, tvl_fiat: '1000.10', change7D: '-0.50', currency: 'EUR', maturity_days: -1 },
    overview: { assetClass: 'Money Market', description: 'Provisioned by ops', riskLevel: 1 },
    subRedemption: { subFreq: 1, redFreq: 2, cutOffTime_days: -1, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
    bank: {
      accountHolderName: 'Ops Fund',
      accountNumber: 'LU630019400000001234',
      accountType: 'IBAN',
      bankName: 'Banque',
      swiftCode: 'BLUXLULL',
      currency: 'EUR',
    },
    ...over,
  };
}

export const SHARE_CLASS_FIELDS = `
  id fundId currency provider status feesSubBps feesRedBps feesMgmtBps feesPerfBps feesWatermarkBps
  meta { name manager } details { isin jurisdiction minimumInvestment_fiat }
  metrics { apy_bps tvl_fiat change7D currency maturity_days }
  overview { assetClass description riskLevel }
  subRedemption { subFreq redFreq cutOffTime_days lockup eligibleInvestors distributionPolicy }
  bank { accountHolderName accountNumber accountType bankName swiftCode currency }
  defaultChainId createdBy updatedBy`;
