import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/** What rawRows and rawTransaction use of knex's client (knex/lib/client.js and its transaction client). */
export interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<unknown>;
  emit(event: 'query', statement: { sql: string; bindings: unknown[] }): boolean;
}

export interface PgConnection {
  query(config: { text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * A transaction of plain statements (`rawRows`) on one pooled connection, BEGIN and COMMIT sent as
 * statements of their own. It has none of an ORM transaction's machinery (a fork, its transaction
 * events, the flush of an empty unit of work, and the knex transaction object knex builds for
 * each): ~0.4 ms of CPU less per transaction (docs/benchmarks-log.md, "What a transaction costs").
 *
 * It is not an EntityManager, on purpose: code handed one can run plain statements and nothing
 * else, and the compiler says so where it tries an ORM call. `em` is there for metadata only (an
 * entity's columns, the platform that parses a row's dates), never for a statement.
 */
export class RawTransaction {
  private ended = false;

  constructor(
    readonly em: EntityManager,
    private readonly client: KnexClient,
    private readonly connection: PgConnection,
  ) {}

  /** One numbered statement on the transaction's connection, announced as knex's `query` event like every other. */
  async send<T>(text: string, params: unknown[]): Promise<T[]> {
    if (this.ended) throw new Error('rawTransaction: the transaction has ended');
    this.client.emit('query', { sql: text, bindings: params });
    return (await this.connection.query({ text, values: params })).rows as T[];
  }

  end(): void {
    this.ended = true;
  }
}

/**
 * Runs `work` in a RawTransaction of its own, on a connection of the ORM's pool: committed when it
 * returns, rolled back when it throws (a lost connection has rolled back on its own; its error is
 * the one thrown). The connection goes back to the pool either way, as knex's own transactions give
 * theirs back. It takes the ORM, not an EntityManager, so it never joins, nor depends on, whatever
 * transaction the caller's async context is in (the relay is woken from a commit's own hook).
 */
export async function rawTransaction<T>(orm: MikroORM, work: (tx: RawTransaction) => Promise<T>): Promise<T> {
  const em = orm.em;
  const client = (em.getKnex() as unknown as { client: KnexClient }).client;
  const connection = await client.acquireConnection();
  const tx = new RawTransaction(em, client, connection);
  try {
    await tx.send('begin', []);
    const out = await work(tx);
    await tx.send('commit', []);
    return out;
  } catch (err) {
    await tx.send('rollback', []).catch(() => undefined);
    throw err;
  } finally {
    tx.end();
    await client.releaseConnection(connection);
  }
}

/** The EntityManager to read metadata from: the transaction's, or the one given. */
export const metadataOf = (on: EntityManager | RawTransaction): EntityManager => (on instanceof RawTransaction ? on.em : on);
