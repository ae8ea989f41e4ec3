import { conflict, notFound } from '../../common/errors';

export const noNavPublished = () => notFound('No NAV published');
export const navEntryExists = (entryId: string) => conflict(`a NAV entry ${entryId} already exists for this share class`);
export const navAwaitsConfirmation = (entryId: string, requestId: string) =>
  conflict(`a NAV entry ${entryId} already awaits confirmation for this share class (approval request ${requestId})`);
export const navPreviousChanged = (entryId: string, previousEntryId: string) =>
  conflict(`NAV entry ${entryId} moved against ${previousEntryId}, which is no longer the confirmed NAV before it: reject it and publish it again`);
