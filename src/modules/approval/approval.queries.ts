import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';

/**
 * The approval module's SQL (docs/architecture.md, "SQL").
 *
 * Kept as SQL, no benchmark pays for it: the ORM has no operator for a jsonb field of `arguments`
 * (`arguments->>'shareClassId'`), which is how the pending NAV a request is for is named.
 */
export async function pendingNavConfirmationId(em: EntityManager, shareClassId: string, entryId: string): Promise<string | undefined> {
  const [row] = await rawRows<{ id: string }>(
    em,
    `select id::text from approval_request where kind = 'nav_confirmation' and status = 'requested' and arguments->>'shareClassId' = ? and arguments->>'entryId' = ?`,
    [shareClassId, entryId],
  );
  return row?.id;
}
