import { badRequest, notFound } from '../../common/errors';

export const invalidShareClassIdFormat = () => badRequest('invalid shareClassId format');
export const shareClassNotFound = () => notFound('shareClassId not found');
