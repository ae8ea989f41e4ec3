import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../../persistence/raw-query';
import type { RawTransaction } from '../../persistence/raw-transaction';
import { WebhookStatus } from './webhook.entity';

/**
 * The webhook module's SQL (docs/architecture.md, "SQL"): the relay's fan-out, which runs in the
 * relay's plain transaction (`RawTransaction`, no unit of work there), and the delivery workers'
 * claims and attempts. What the events' path costs is `npm run bench:events` (docs/benchmarks.md,
 * "Events: from commit to webhook and subscription").
 */

export interface ActiveWebhookRow {
  id: string;
  distributor_id: string;
  event_type: string;
}

/**
 * The active webhooks of these distributors for these event types. Kept as SQL: in the relay's
 * plain transaction, on every relay pass; three columns are all it needs (`npm run bench:events`).
 */
export async function activeWebhooksFor(tx: RawTransaction, distributorIds: string[], eventTypes: string[]): Promise<ActiveWebhookRow[]> {
  return rawRows<ActiveWebhookRow>(
    tx,
    `select id, distributor_id, event_type from webhook where status = ? and distributor_id = any(?) and event_type = any(?)`,
    [WebhookStatus.active, distributorIds, eventTypes],
  );
}

/** A delivery to create: its webhook, event, type, distributor and body. */
export interface NewDeliveryRow {
  w: string;
  e: string;
  t: string;
  d: string;
  b: string;
}

/**
 * The deliveries, in the given order (so a webhook's are numbered as its events came), and the
 * delivery workers told at commit (`channel`): answers the ids created. Kept as SQL: `on conflict
 * do nothing` keeps one delivery per webhook and event whatever relay wrote it first, in the
 * relay's plain transaction.
 */
export async function insertDeliveries(tx: RawTransaction, rows: NewDeliveryRow[], now: Date, channel: string): Promise<{ id: string }[]> {
  // PostgreSQL sends a transaction's identical notifications once.
  return rawRows<{ id: string }>(
    tx,
    `with d as (
       insert into webhook_delivery (webhook_id, event_id, event_type, distributor_id, body, test, status, attempts, schedule_step, next_attempt_at, created_at)
       select r->>'w', r->>'e', r->>'t', r->>'d', r->>'b', false, 'pending', 0, 0, ?, ?
       from jsonb_array_elements(?::jsonb) with ordinality as x(r, n) order by x.n
       on conflict (webhook_id, event_id) do nothing returning id)
     select id, pg_notify(?, '') from d`,
    [now, now, JSON.stringify(rows), channel],
  );
}

/**
 * The orders' given columns, by id. Kept as SQL: read in the relay's plain transaction (and by the
 * event feed) as records, not hydrated and tracked entities (`npm run bench:events`).
 */
export async function orderColumnsById(
  on: EntityManager | RawTransaction,
  columns: readonly string[],
  ids: readonly string[],
): Promise<Record<string, unknown>[]> {
  return rawRows(on, `select ${columns.map((c) => `"${c}"`).join(', ')} from "order" where id = any(?)`, [[...new Set(ids)]]);
}

export interface ClaimedDeliveryRow {
  id: string | number;
  attempts: number;
  schedule_step: number;
  webhook_id: string;
  event_id: string;
  event_type: string;
  distributor_id: string;
  body: string;
  test: boolean;
}

const DUE = `((d.status = 'pending' and d.next_attempt_at <= ?) or (d.status = 'in_flight' and d.lease_until <= ?))`;
const CLAIM_SQL = `with busy as (
     select webhook_id, count(*) as n from webhook_delivery where status = 'in_flight' and lease_until > ? group by webhook_id
   ), due as (
     select d.id, row_number() over (partition by d.webhook_id order by d.next_attempt_at, d.id) as rn
     from webhook_delivery d where ${DUE}
   )
   update webhook_delivery w set status = 'in_flight', lease_until = ?, attempts = w.attempts + 1
   where w.id in (
     select d.id from webhook_delivery d
     join due on due.id = d.id
     left join busy on busy.webhook_id = d.webhook_id
     where ${DUE} and due.rn + coalesce(busy.n, 0) <= ?
     order by d.next_attempt_at, d.id
     limit ?
     for update of d skip locked
   )
   returning w.id, w.attempts, w.schedule_step, w.webhook_id, w.event_id, w.event_type, w.distributor_id, w.body, w.test`;

/**
 * Up to `limit` due deliveries (pending and due, or in flight past their lease) marked in flight
 * until `lease`, at most `perEndpoint` in flight per webhook. Kept as SQL: `for update skip locked`
 * shares the due deliveries among the workers of every instance.
 */
export async function claimDueDeliveries(em: EntityManager, now: Date, lease: Date, perEndpoint: number, limit: number): Promise<ClaimedDeliveryRow[]> {
  return rawRows<ClaimedDeliveryRow>(em, CLAIM_SQL, [now, now, now, lease, now, now, perEndpoint, limit]);
}

/** An attempt's record and the delivery's next state. */
export interface AttemptRow {
  deliveryId: string;
  /** The claim's attempt number: the delivery moves on only while it still holds it. */
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  success: boolean;
  error: string | null;
  status: string;
  scheduleStep: number;
  nextAttemptAt: Date;
  completedAt: Date | null;
}

/**
 * The attempt's row, and the delivery moved on only while the claim still holds it (in flight, the
 * same attempt count), in one statement. Kept as SQL: the condition on the claim decides the race
 * with a worker that took an expired lease over; one statement, no transaction around it
 * (`npm run bench:events`).
 */
export async function recordAttempt(em: EntityManager, a: AttemptRow): Promise<void> {
  await rawRows(
    em,
    `with attempt as (
       insert into webhook_attempt (delivery_id, number, attempted_at, status_code, latency_ms, success, error) values (?, ?, ?, ?, ?, ?, ?)
     )
     update webhook_delivery set status = ?, schedule_step = ?, next_attempt_at = ?, lease_until = null, last_error = ?, completed_at = ?
     where id = ? and status = 'in_flight' and attempts = ?`,
    [
      a.deliveryId,
      a.attempt,
      a.attemptedAt,
      a.statusCode,
      a.latencyMs,
      a.success,
      a.error,
      a.status,
      a.scheduleStep,
      a.nextAttemptAt,
      a.error,
      a.completedAt,
      a.deliveryId,
      a.attempt,
    ],
  );
}
