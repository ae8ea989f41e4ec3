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

/** An EVM address made of a number: distinct, readable test addresses. */
export const evmAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

/** An issuer and one fund of it, created as ops. */
export async function aFundViaOps(gw: TestGateway) {
  const { createIssuer } = await asOps(
    gw,
    `mutation { createIssuer(input: {name: "Issuer", lei: "5493001KJTIIGC8Y1R12", jurisdiction: "LU"}) { id name lei createdBy } }`,
  );
  const { createFund } = await asOps(gw, `mutation($i: ID!) { createFund(input: {issuerId: $i, name: "Fund"}) { id issuerId } }`, { i: createIssuer.id });
  return { issuer: createIssuer, fund: createFund };
}

/** A share class of the fund, created as ops from `shareClassInput` with `over`. */
export async function aShareClassViaOps(gw: TestGateway, fundId: string, over: Record<string, unknown> = {}) {
  const { createShareClass } = await asOps(gw, `mutation($in: CreateShareClassInput!) { createShareClass(input: $in) { ${SHARE_CLASS_FIELDS} } }`, {
    in: shareClassInput(fundId, over),
  });
  return createShareClass;
}

export const TOKEN_FIELDS = `id shareClassId chainId contractAddress name symbol decimals isPrimary`;

/** A token of the share class at `evmAddress(n)`, created as ops. */
export async function aTokenViaOps(gw: TestGateway, shareClassId: string, chainId: string, n: number, isPrimary?: boolean) {
  const { createToken } = await asOps(gw, `mutation($in: CreateTokenInput!) { createToken(input: $in) { ${TOKEN_FIELDS} } }`, {
    in: { shareClassId, chainId, contractAddress: evmAddress(n), name: `Token ${n}`, symbol: `T${n}`, decimals: 6, isPrimary },
  });
  return createToken;
}

/** A distributor created as ops. */
export async function aDistributorViaOps(gw: TestGateway, name = 'Dist') {
  return (await asOps(gw, `mutation($n: String!) { createDistributor(input: {name: $n}) { id partnerId status } }`, { n: name })).createDistributor;
}
