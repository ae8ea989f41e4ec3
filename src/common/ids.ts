import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';

/**
 * Identifiers: a two-letter prefix and a six-digit zero-padded number drawn from a PostgreSQL
 * sequence per prefix, so concurrent writers and several gateway instances never collide.
 * Surface O's `PT`/`US` ids are aliases of the `DT`/`IN` records with the same number.
 */
export const SEQUENCE_PREFIXES = ['IS', 'FN', 'SC', 'TK', 'DT', 'IN', 'OR'] as const;
export type SequencePrefix = (typeof SEQUENCE_PREFIXES)[number];
export type IdPrefix = SequencePrefix | 'PT' | 'US';

export const sequenceName = (prefix: SequencePrefix) => `id_seq_${prefix.toLowerCase()}`;

export function formatId(prefix: IdPrefix, n: number | string): string {
  return prefix + String(n).padStart(6, '0');
}

export async function nextId(em: EntityManager, prefix: SequencePrefix): Promise<string> {
  // em.execute runs inside the caller's transaction, if any (a second connection would deadlock the embedded database).
  const rows = await em.execute<{ n: string }[]>(`select nextval('${sequenceName(prefix)}') as n`);
  return formatId(prefix, rows[0].n);
}

const ID_PATTERN = /^([A-Z]{2})(\d{6,})$/;

/** True when `value` is `prefix` followed by at least six digits. */
export function hasIdFormat(value: unknown, prefix: IdPrefix): value is string {
  if (typeof value !== 'string') return false;
  const m = ID_PATTERN.exec(value);
  return m !== null && m[1] === prefix;
}

/** The same record under another prefix: `DT000007` ↔ `PT000007`, `IN000042` ↔ `US000042`. */
export function alias(id: string, to: IdPrefix): string {
  const m = ID_PATTERN.exec(id);
  return m ? to + m[2] : id;
}

/**
 * The record id (`DT`/`IN`) of a distributor or investor named as a caller's surface names it:
 * `PT`/`US` on surface O, `DT`/`IN` on surface R, either for ops (`surface` null). An id of the
 * other surface's form, or of no form, is null: the caller is answered as for a missing record.
 */
export function recordId(id: unknown, kind: 'distributor' | 'investor', surface: 'R' | 'O' | null): string | null {
  const [internal, external] = kind === 'distributor' ? (['DT', 'PT'] as const) : (['IN', 'US'] as const);
  if (surface !== 'R' && hasIdFormat(id, external)) return alias(id, internal);
  if (surface !== 'O' && hasIdFormat(id, internal)) return id;
  return null;
}

/** Opaque ids of the forms `ord_<id>` and `wh_<id>`: random, so they cannot be guessed. */
export function opaqueId(prefix: 'ord' | 'wh' | 'evt' | 'msg'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
