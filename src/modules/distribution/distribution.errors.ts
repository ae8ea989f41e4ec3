import { badRequest, conflict, notFound } from '../../common/errors';

export const distributionNotFound = () => notFound('Distribution not found');
export const shareClassNotFound = () => notFound('Share class not found');
export const accumulatingClass = (shareClassId: string) =>
  conflict(`share class ${shareClassId} is accumulating: its income stays in the NAV and is not distributed`);
export const periodNotEnded = (periodTo: string) =>
  conflict(`the period ends ${periodTo}: its closing balances are known once that day has closed in the dealing zone`);
export const invalidDate = (field: string) => badRequest(`${field} must be a date YYYY-MM-DD`);
export const oneBasis = () => badRequest('give exactly one of ratePerTokenPerDay and amountPerToken');
export const notPositive = (field: string) => badRequest(`${field} must be a positive decimal`);
export const noChainForToken = (shareClassId: string, chainId: string) =>
  conflict(`share class ${shareClassId} has a token on chain ${chainId}, which the gateway does not write to: its reinvestment cannot be minted`);
export const notPaidYet = (id: string) => conflict(`distribution ${id} is declared: payDistribution pays it; only the failed rows of a payment are sent again`);
