import { badRequest, conflict, notFound } from '../../common/errors';

export const tokenNotFound = (id: string) => notFound(`token not found: ${id}`);
export const tokenAddressTaken = (chainId: string, address: string) => conflict(`a token with contract ${address} on chain ${chainId} already exists`);
export const cannotUnsetPrimary = () =>
  badRequest('isPrimary cannot be set to false: a share class always has one primary token; make another token primary instead');
