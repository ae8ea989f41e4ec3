import { notFound } from '../../common/errors';

/** Unknown, or another distributor's user: the same answer. */
export const userNotFound = () => notFound('userId not found');
