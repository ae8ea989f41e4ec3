import { notFound } from '../../common/errors';

export const fundNotFound = (id: string) => notFound(`fund not found: ${id}`);
