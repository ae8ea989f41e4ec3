import { conflict, notFound } from '../../common/errors';

export const investorNotFound = () => notFound('investorId not found');
export const investorNotFoundById = (id: string) => notFound(`investor not found: ${id}`);
export const shareClassNotGrantedToDistributor = (shareClassId: string, distributorId: string) =>
  conflict(`share class ${shareClassId} is not granted to distributor ${distributorId}; grant it to the distributor first`);
export const investorGrantNotFound = (investorId: string, shareClassId: string) =>
  notFound(`share class ${shareClassId} is not granted to investor ${investorId}`);
export const walletAlreadyInUse = (investorId: string, chainId: string) =>
  conflict(`investor ${investorId} already has a wallet in use on chain ${chainId}; remove it from the whitelist first`);
export const noWalletInUse = (investorId: string, chainId: string) => notFound(`investor ${investorId} has no wallet in use on chain ${chainId}`);
/** An investor that is not `active` places no orders. */
export const investorNotTrading = (id: string, status: string) => conflict(`investor ${id} is ${status}: it places no orders`);
