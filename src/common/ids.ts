import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { badRequest } from './errors';
import { required } from './validate';

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

/**
 * `nextId` as an SQL expression, for a statement that inserts the record it names: the same
 * sequence and the same form as `formatId` (padded to six digits, never cut).
 */
export function nextIdSql(prefix: SequencePrefix): string {
  return `(select '${prefix}' || lpad(n, greatest(6, length(n)), '0') from (select nextval('${sequenceName(prefix)}')::text as n) s)`;
}

export async function nextId(em: EntityManager, prefix: SequencePrefix): Promise<string> {
  // em.execute runs inside the caller's transaction, if any (a second connection would deadlock the embedded database).
  const rows = await em.execute<{ n: string }[]>(`select nextval('${sequenceName(prefix)}') as n`);
  return formatId(prefix, rows[0].n);
}

/** The description's identifier form: a 2-letter prefix and exactly six digits (`SC1234567` is not one). */
const ID_PATTERN = /^([A-Z]{2})(\d{6})$/;

/** True when `value` is `prefix` followed by exactly six digits. */
export function hasIdFormat(value: unknown, prefix: IdPrefix): value is string {
  if (typeof value !== 'string') return false;
  const m = ID_PATTERN.exec(value);
  return m !== null && m[1] === prefix;
}

/*
 * The boundary of surface ids, both ways: surface O names distributors and investors `PT`/`US`,
 * the records are `DT`/`IN` with the same number. Ids come in through `recordId` (strict: an id of
 * another kind or surface is no record's) and go out through `shownId`; nothing else re-prefixes.
 */

/** The same record under another prefix: `DT000007` ↔ `PT000007`, `IN000042` ↔ `US000042`. */
function alias(id: string, to: IdPrefix): string {
  const m = ID_PATTERN.exec(id);
  return m ? to + m[2] : id;
}

const PREFIXES = { distributor: { record: 'DT', surfaceO: 'PT' }, investor: { record: 'IN', surfaceO: 'US' } } as const;
export type AliasedKind = keyof typeof PREFIXES;

/**
 * The record id (`DT`/`IN`) of a distributor or investor named as a caller's surface names it:
 * `PT`/`US` on surface O, `DT`/`IN` on surface R, either for ops (`surface` null). An id of the
 * other surface's form, of another kind (`SC000001` for an investor), or of no form, is null:
 * the caller is answered as for a missing record.
 */
export function recordId(id: unknown, kind: AliasedKind, surface: 'R' | 'O' | null): string | null {
  const { record, surfaceO } = PREFIXES[kind];
  if (surface !== 'R' && hasIdFormat(id, surfaceO)) return alias(id, record);
  if (surface !== 'O' && hasIdFormat(id, record)) return id;
  return null;
}

/** A record id (`DT`/`IN`) as `surface` shows it: `PT`/`US` on surface O, unchanged otherwise. */
export function shownId(id: string, kind: AliasedKind, surface: 'R' | 'O' | null): string {
  return surface === 'O' ? alias(id, PREFIXES[kind].surfaceO) : id;
}

/** Opaque ids of the forms `ord_<id>` and `wh_<id>`: random, so they cannot be guessed. */
export function opaqueId(prefix: 'ord' | 'wh' | 'evt' | 'msg'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/**
 * A documented id as a request sends it, in a path or a body: `<field> is required` when missing,
 * `invalid <field> format` (400) unless it is one of `prefixes` plus exactly six digits. Which
 * of the prefixes the caller's surface may use is `recordId`'s rule, after this one.
 */
export function documentedId(value: unknown, field: string, prefixes: readonly IdPrefix[]): string {
  const id = required(value, field);
  if (!prefixes.some((p) => hasIdFormat(id, p))) throw badRequest(`invalid ${field} format`);
  return id;
}

/** Documented prefixes of each id field, either surface's. */
export const ID_PREFIXES = {
  distributorId: ['DT', 'PT'],
  investorId: ['IN', 'US'],
  shareClassId: ['SC'],
} as const satisfies Record<string, readonly IdPrefix[]>;
