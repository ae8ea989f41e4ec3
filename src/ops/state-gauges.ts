import type { MikroORM } from '@mikro-orm/postgresql';
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../common/clock';
import { logger } from '../common/logger';

/*
 * The gauges read from the database when /metrics is scraped: what waits (pool, relay, deliveries,
 * unanswered audit rows) and what disagrees (reconciliation, unknown wallets). Each read is its own
 * statement; a failed read keeps the gauge's last value.
 */

/** Every state gauge of the gateway, on `registry`. */
export function stateGauges(registry: Registry, orm: MikroORM, clock: Clock): void {
  databaseGauges(registry, orm, clock);
  reconciliationGauge(registry, orm);
  unknownWalletGauge(registry, orm);
  unansweredAuditGauge(registry, orm, clock);
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** Pool use, relay lag and pending deliveries, read when scraped (a failed read keeps the last value). */
function databaseGauges(registry: Registry, orm: MikroORM, clock: Clock): void {
  const pool = () => (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
  new Gauge({
    name: 'gateway_db_pool_connections',
    help: 'Database pool connections by state (used, free, pending acquires, max)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const p = pool();
      this.set({ state: 'used' }, p?.numUsed() ?? 0);
      this.set({ state: 'free' }, p?.numFree() ?? 0);
      this.set({ state: 'pending' }, p?.numPendingAcquires() ?? 0);
      this.set({ state: 'max' }, p?.max ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_event_relay_lag_seconds',
    help: 'Age of the oldest event not yet announced by the relay (0 when none waits)',
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const [row] = await orm.em
          .fork()
          .execute<{ oldest: Date | string | null }[]>(`select min(occurred_at) as oldest from "event" where relayed_at is null`);
        this.set(secondsSince(clock, row?.oldest));
      });
    },
  });
  new Gauge({
    name: 'gateway_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for an attempt or in flight',
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const [row] = await orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from webhook_delivery where status in ('pending', 'in_flight')`);
        this.set(Number(row?.n ?? 0));
      });
    },
  });
}

/**
 * `register_chain_difference{share_class}`: the newest scheduled reconciliation's Σ |chain −
 * register| in tokens (src/modules/register/reconciliation.ts); 0 when the register is true to the chain.
 */
function reconciliationGauge(registry: Registry, orm: MikroORM): void {
  new Gauge({
    name: 'register_chain_difference',
    help: 'Tokens by which the register and the chain differ, per share class, at the last scheduled reconciliation',
    labelNames: ['share_class'] as const,
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const rows = await orm.em
          .fork()
          .execute<{ share_class_id: string; total_difference: string }[]>(
            `select distinct on (share_class_id) share_class_id, total_difference::text from reconciliation_run order by share_class_id, at desc, id desc`,
          );
        this.reset();
        for (const r of rows) this.set({ share_class: r.share_class_id }, Number(r.total_difference));
      });
    },
  });
}

/**
 * `register_unknown_wallet_transfers{share_class}`: transfers to or from a wallet the register
 * does not know, at the newest scheduled reconciliation (its `unknownWalletTransfers`, each with
 * block and hash); an alert above 0.
 */
function unknownWalletGauge(registry: Registry, orm: MikroORM): void {
  new Gauge({
    name: 'register_unknown_wallet_transfers',
    help: 'Transfers to or from wallets the register does not know, per share class, at the last scheduled reconciliation',
    labelNames: ['share_class'] as const,
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const rows = await orm.em.fork().execute<{ share_class_id: string; n: number | null }[]>(
          `select share_class_id, jsonb_array_length(coalesce(result->'unknownWalletTransfers', '[]'::jsonb)) as n
           from (select distinct on (share_class_id) share_class_id, result from reconciliation_run order by share_class_id, at desc, id desc) last`,
        );
        this.reset();
        for (const r of rows) this.set({ share_class: r.share_class_id }, Number(r.n ?? 0));
      });
    },
  });
}

/**
 * `gateway_audit_log_unanswered_seconds`: how long the oldest ops mutation has been running without
 * an answer in the audit log (0 when none). A row stays `pending` for good when the gateway stopped
 * between the mutation and its seal (docs/approvals.md): an alert above the longest an ops mutation
 * may take (the chain waits included) names a mutation whose outcome must be read from its records.
 */
function unansweredAuditGauge(registry: Registry, orm: MikroORM, clock: Clock): void {
  new Gauge({
    name: 'gateway_audit_log_unanswered_seconds',
    help: 'Age of the oldest ops mutation in the audit log without an answer (0 when none)',
    registers: [registry],
    async collect() {
      await readOrKeep(async () => {
        const [row] = await orm.em.fork().execute<{ oldest: Date | string | null }[]>(`select min(at) as oldest from audit_log where outcome = 'pending'`);
        this.set(secondsSince(clock, row?.oldest));
      });
    },
  });
}

/** The age of the oldest thing waiting, in seconds by the gateway's clock; 0 when nothing waits. */
function secondsSince(clock: Clock, oldest: Date | string | null | undefined): number {
  return oldest ? Math.max(0, (clock.now().getTime() - new Date(oldest).getTime()) / 1000) : 0;
}

async function readOrKeep(read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'metric not read from the database');
  }
}
