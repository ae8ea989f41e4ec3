import { badRequest, conflict, notFound } from '../../common/errors';

export const noNavPublished = () => notFound('No NAV published');
export const navEntryExists = (entryId: string) => conflict(`a NAV entry ${entryId} already exists for this share class`);
/** A NAV is struck, not predicted: its `publishedAt` may not be ahead of now beyond the clock skew. */
export const navInTheFuture = (skewMs: number) =>
  badRequest(`publishedAt must not be in the future: a NAV is struck, not predicted (at most ${skewMs / 1000} s ahead of the gateway's clock)`);
