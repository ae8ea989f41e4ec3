import { conflict, notFound } from '../../common/errors';

export const noNavPublished = () => notFound('No NAV published');
export const navEntryExists = (entryId: string) => conflict(`a NAV entry ${entryId} already exists for this share class`);
