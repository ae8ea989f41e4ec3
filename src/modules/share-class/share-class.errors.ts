import { conflict, notFound } from '../../common/errors';

export const shareClassNotFound = () => notFound('shareClassId not found');
/** A share class that is not `active` takes no new orders. */
export const shareClassNotTrading = (id: string, status: string) => conflict(`share class ${id} is ${status}: it takes no new orders`);
