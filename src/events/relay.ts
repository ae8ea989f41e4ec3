import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../common/clock';
import { onEvents } from './event-log';
import { topicOf, type EventBus, type RelayedEvent } from './pubsub';
import { WakeLoop } from './wake-loop';
import { rawRows } from '../persistence/raw-query';
import { rawTransaction, type RawTransaction } from '../persistence/raw-transaction';
import { ListenConnection } from './listen-connection';

/** Channels of the NOTIFY trigger on `event` and of the webhook fan-out telling delivery workers of new deliveries. */
export const EVENT_CHANNEL = 'gateway_event';
export const DELIVERY_CHANNEL = 'gateway_delivery';
/** One relay at a time across instances, so announcements keep the log's order. */
const RELAY_LOCK = 734100005;

/**
 * A pass's statement: the relay lock and the batch in one round trip. Without the lock, no rows (a
 * CTE with a volatile function is evaluated once; rows it filters out are not locked). bench:cpu
 * counts the relay's passes by it.
 */
export const RELAY_BATCH = `with relay as (select pg_try_advisory_xact_lock(${RELAY_LOCK}) as locked)
  select position, event_id, type, aggregate_type, aggregate_id, distributor_id, payload, occurred_at
  from "event", relay where relay.locked and relayed_at is null order by position limit ? for update of "event" skip locked`;

export interface RelayOptions {
  pollMs: number;
  batchSize?: number;
  /** Where to LISTEN (a PostgreSQL server); null polls only (the embedded database). */
  listen: { connectionString?: string; host?: string; port?: number; user?: string; database?: string } | null;
  /**
   * Creates the batch's webhook deliveries in the relay's transaction and notifies DELIVERY_CHANNEL
   * of them; returns how many. Given at wiring (the webhook module's fan-out): the events layer
   * knows no module.
   */
  fanOut: (tx: RawTransaction, events: RelayedEvent[], now: Date) => Promise<number>;
  /** Called when the relay created deliveries (wakes the local worker). */
  onDeliveries: () => void;
}

interface EventRow {
  position: string;
  event_id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  distributor_id: string | null;
  payload: Record<string, unknown> | string;
  occurred_at: Date | string;
}

/**
 * The relay: reads committed events the log has not announced yet (`relayed_at is null`), in
 * position order, and in one transaction of plain statements per batch (a RawTransaction) has their
 * webhook deliveries created (`fanOut`), announces them to subscriptions and marks them relayed.
 *
 * - Only committed rows are visible to it, so nothing is announced that did not commit.
 * - A row stays pending until the transaction that marks it commits; a crash before that leaves
 *   it pending and the next relay (this instance after restart, or another) takes it: nothing
 *   committed goes unannounced. Subscribers may then hear an event twice; they de-duplicate by
 *   `eventId` (and orders by `sequence`).
 * - A transaction-scoped advisory lock keeps one relay at a time over the database; rows are
 *   also taken `FOR UPDATE SKIP LOCKED`.
 *
 * Woken by NOTIFY from the `event` insert trigger (PostgreSQL server), by this process's own
 * committed events (`onEvents`, however they were written), and by a poll every `pollMs` (the
 * embedded database's socket server does not carry LISTEN, so there the poll and the local
 * wake-ups do the work).
 */
export class EventRelay {
  private readonly loop: WakeLoop;
  private listener: ListenConnection | null = null;
  private wakeupRegistered = false;
  private readonly batchSize: number;

  constructor(
    private readonly orm: MikroORM,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly options: RelayOptions,
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.loop = new WakeLoop('event relay', async () => (await this.relayBatch()) === this.batchSize, options.pollMs);
  }

  async start(): Promise<void> {
    // Registered once: a stopped relay ignores wake-ups, and a restart must not add a second one.
    if (!this.wakeupRegistered) onEvents(this.orm.em, { committed: () => this.wake() });
    this.wakeupRegistered = true;
    if (this.options.listen && !this.listener) {
      this.listener = new ListenConnection(this.options.listen, EVENT_CHANNEL, () => this.wake(), 'event relay');
      await this.listener.open();
    }
    this.loop.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.loop.stop(), this.stopListening()]);
  }

  /** Closes the LISTEN connection (and its reconnecting) at once; the relay polls until stopped. */
  async stopListening(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await listener?.close();
  }

  wake(): void {
    this.loop.wake();
  }

  /** Relays one batch; returns how many events it announced. */
  async relayBatch(): Promise<number> {
    let created = 0;
    let count = 0;
    // Plain statements only, so a RawTransaction: a pass runs once per write or two, and an ORM
    // transaction would cost it ~0.4 ms of CPU more (docs/benchmarks.md).
    await rawTransaction(this.orm, async (tx) => {
      const rows = await rawRows<EventRow>(tx, RELAY_BATCH, [this.batchSize]);
      if (!rows.length) return;
      const events = rows.map(toRelayed);
      created = await this.options.fanOut(tx, events, this.clock.now());
      await markRelayed(tx, events, this.clock.now());
      // Announced before the mark commits: at least once (a failed commit announces again later).
      // An unreachable Redis loses live messages but never holds up webhook deliveries (EventBus.publish).
      for (const e of events) {
        const topic = topicOf(e);
        if (topic) await this.bus.publish(topic, e);
      }
      count = events.length;
    });
    if (created) this.options.onDeliveries();
    return count;
  }
}

/**
 * Marks a batch relayed and numbers it for the event feed, in log order. The numbers come from a
 * sequence while this relay holds the relay lock until commit, so a later batch always gets
 * higher numbers: a feed cursor never skips an event that committed late.
 */
async function markRelayed(tx: RawTransaction, events: RelayedEvent[], now: Date): Promise<void> {
  // One statement: the i-th smallest new number goes to the i-th event of the batch.
  await rawRows(
    tx,
    `with numbers as (select nextval('event_feed_position_seq') as fp from generate_series(1, ?)),
          ranked as (select fp, row_number() over (order by fp) as i from numbers)
     update "event" as e set relayed_at = ?, feed_position = ranked.fp
     from unnest(?::bigint[]) with ordinality as batch(pos, i) join ranked using (i)
     where e.position = batch.pos`,
    [events.length, now, events.map((e) => e.position)],
  );
}

function toRelayed(r: EventRow): RelayedEvent {
  return {
    eventId: r.event_id,
    position: String(r.position),
    type: r.type,
    aggregateType: r.aggregate_type,
    aggregateId: r.aggregate_id,
    distributorId: r.distributor_id,
    payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as Record<string, unknown>) : r.payload,
    occurredAt: new Date(r.occurred_at).getTime(),
  };
}

/** Listens for new deliveries created by any instance's relay, to wake this instance's worker. */
export async function listenForDeliveries(listen: RelayOptions['listen'], wake: () => void): Promise<ListenConnection | null> {
  if (!listen) return null;
  const connection = new ListenConnection(listen, DELIVERY_CHANNEL, wake, 'webhook delivery worker');
  await connection.open();
  return connection;
}
