import { notFound } from '../../common/errors';

export const investorNotFound = () => notFound('investorId not found');
