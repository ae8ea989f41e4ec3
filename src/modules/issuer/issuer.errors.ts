import { notFound } from '../../common/errors';

export const issuerNotFound = (id: string) => notFound(`issuer not found: ${id}`);
