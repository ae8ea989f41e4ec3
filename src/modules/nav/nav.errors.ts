import { badRequest, conflict, notFound } from '../../common/errors';

export const noNavPublished = () => notFound('No NAV published');
export const navEntryExists = (entryId: string) => conflict(`a NAV entry ${entryId} already exists for this share class`);
export const navAwaitsConfirmation = (entryId: string, requestId: string) =>
  conflict(`a NAV entry ${entryId} already awaits confirmation for this share class (approval request ${requestId})`);
export const navPreviousChanged = (entryId: string, previousEntryId: string) =>
  conflict(`NAV entry ${entryId} moved against ${previousEntryId}, which is no longer the confirmed NAV before it: reject it and publish it again`);
/** A NAV is struck, not predicted: its `publishedAt` may not be ahead of now beyond the clock skew. */
export const navInTheFuture = (skewMs: number) =>
  badRequest(`publishedAt must not be in the future: a NAV is struck, not predicted (at most ${skewMs / 1000} s ahead of the gateway's clock)`);
