import type { EntityManager } from '@mikro-orm/postgresql';
import { RawTransaction, type KnexClient } from './raw-transaction';

/**
 * One SQL statement with bound parameters (`?`, as knex writes them), sent to the driver on the
 * ORM's own connection (the caller's transaction when there is one, else one from the ORM's
 * pool), returning plain rows. For hot reads and set-based writes that map their own rows:
 * `em.execute` costs more CPU per statement, and knex's `raw` builds, rescans and post-processes
 * every statement on each call (docs/benchmarks.md, "Measured costs behind code choices").
 *
 * What knex would check is still checked: a statement's placeholders match its parameters and no
 * parameter is `undefined` (a missing value is a bug, never a NULL). Every statement is still
 * announced as knex's `query` event, so whoever watches the ORM's statements sees these too.
 * On a RawTransaction (raw-transaction.ts), the statement runs on that transaction's connection.
 */
export async function rawRows<T = Record<string, unknown>>(on: EntityManager | RawTransaction, sql: string, params: unknown[]): Promise<T[]> {
  const text = numbered(sql, params);
  if (on instanceof RawTransaction) return on.send<T>(text, params);
  const em = on;
  const knex = (em.getTransactionContext<ReturnType<EntityManager['getKnex']>>() ?? em.getKnex()) as unknown as { client: KnexClient };
  const client = knex.client;
  client.emit('query', { sql: text, bindings: params });
  // Inside a transaction knex's client hands out the transaction's connection and releases nothing.
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ text, values: params })).rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}

interface Numbered {
  text: string;
  placeholders: number;
}

/**
 * Statement texts numbered so far. They are the code's constants (a list is one array parameter,
 * `= any(?::text[])`, which eslint's config holds every statement to), and the map still keeps
 * only the most recent MAX_TEXTS, so a text built at run time could never grow it for good: a
 * forgotten text is numbered again when it comes back.
 */
const texts = new Map<string, Numbered>();
const MAX_TEXTS = 1_000;

/**
 * The statement with `?` as `$1`, `$2`… (knex's positionBindings: `\?` stays a literal `?`).
 * knex's `??` (an identifier) is not supported: statements name their tables and columns.
 */
function numbered(sql: string, params: unknown[]): string {
  let n = texts.get(sql);
  if (!n) {
    if (/(^|[^\\])\?\?/.test(sql)) throw new Error('rawRows: `??` identifiers are not supported; name the column in the statement');
    let placeholders = 0;
    const text = sql.replace(/(\\*)(\?)/g, (_m, escapes: string) => (escapes.length % 2 ? '?' : `$${++placeholders}`));
    if (texts.size >= MAX_TEXTS) texts.delete(texts.keys().next().value!);
    texts.set(sql, (n = { text, placeholders }));
  }
  if (n.placeholders !== params.length) throw new Error(`rawRows: expected ${n.placeholders} bindings, saw ${params.length}`);
  for (const p of params) if (p === undefined || (Array.isArray(p) && p.includes(undefined))) throw new Error('rawRows: undefined binding');
  return n.text;
}
