import { conflict, notFound } from '../../common/errors';

export const noNavPublished = () => notFound('No NAV published');
export const navEntryExists = (entryId: string) => conflict(`a NAV entry ${entryId} already exists for this share class`);
export const navAwaitsConfirmation = (entryId: string, requestId: string) =>
  conflict(`a NAV entry ${entryId} already awaits confirmation for this share class (approval request ${requestId})`);
