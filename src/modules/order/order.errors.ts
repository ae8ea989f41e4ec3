import { notFound } from '../../common/errors';

/** Unknown, or another distributor's: the same answer, so ids cannot be probed. */
export const orderNotFound = () => notFound('order not found');
