import { badRequest, notFound } from '../../common/errors';

/** Unknown, or another distributor's user: the same answer. */
export const userNotFound = () => notFound('userId not found');
/** An ops adjustment would take out tokens that are not free (held less those promised to open redemptions). */
export const quantityExceedsHoldings = () => badRequest('quantity exceeds holdings');
