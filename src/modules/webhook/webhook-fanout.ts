import type { RawTransaction } from '../../persistence/raw-transaction';
import type { RelayedEvent } from '../../events/pubsub';
import { DELIVERY_CHANNEL } from '../../events/relay';
import type { WebhookEvents } from '../../access/webhook-event-family';
import { webhookBody } from './webhook-body';
import { orderWebhookData, webhookOrders } from './webhook-payload';
import { activeWebhooksFor, insertDeliveries, type NewDeliveryRow } from './webhook.queries';

/**
 * The relay's fan-out to webhooks (src/events/relay.ts, given it at wiring): in the relay's
 * transaction, one delivery per active webhook of the event's distributor for the event's type,
 * at most once per webhook and event (a unique key), announced to the delivery workers at commit.
 * Returns how many deliveries it created. `families` are every module's webhook events, folded
 * (src/modules/manifests.ts).
 */
export function createDeliveries(families: WebhookEvents): (tx: RawTransaction, events: RelayedEvent[], now: Date) => Promise<number> {
  return (tx, events, now) => deliveriesOf(families, tx, events, now);
}

async function deliveriesOf(families: WebhookEvents, tx: RawTransaction, events: RelayedEvent[], now: Date): Promise<number> {
  const webhookTypeOf = (e: RelayedEvent) => families.deliveredAs(e);
  const announcing = events.filter((e) => webhookTypeOf(e) && e.distributorId);
  if (!announcing.length) return 0;
  // A plain statement, not an ORM find: it runs on every relay pass, and three columns are all it needs.
  const hooks = await activeWebhooksFor(tx, [...new Set(announcing.map((e) => e.distributorId!))], [...new Set(announcing.map((e) => webhookTypeOf(e)!))]);
  if (!hooks.length) return 0;
  // The events some webhook takes, with their targets: only their orders are read.
  const taken = announcing
    .map((e) => {
      const eventType = webhookTypeOf(e)!;
      return { e, eventType, targets: hooks.filter((h) => h.distributor_id === e.distributorId && h.event_type === eventType) };
    })
    .filter((t) => t.targets.length);
  const orders = await webhookOrders(
    tx,
    taken.filter((t) => families.familyOf(t.e.type)!.data === 'order').map((t) => t.e.aggregateId),
  );
  // One row per (webhook, event), bound as one jsonb array: the statement's text is one constant.
  const deliveries: NewDeliveryRow[] = [];
  for (const { e, eventType, targets } of taken) {
    const { data } = families.familyOf(e.type)!;
    const logged = {
      eventId: e.eventId,
      type: e.type,
      aggregateId: e.aggregateId,
      distributorId: e.distributorId!,
      occurredAt: new Date(e.occurredAt),
      payload: e.payload,
    };
    const body = webhookBody(eventType, data === 'order' ? orderWebhookData(logged, orders.get(e.aggregateId) ?? null) : data(logged));
    for (const h of targets) deliveries.push({ w: h.id, e: e.eventId, t: eventType, d: e.distributorId!, b: body });
  }
  if (!deliveries.length) return 0;
  // In the events' order (ordinality), so a webhook's deliveries are numbered as its events came.
  // The same statement tells every instance's delivery worker (DELIVERY_CHANNEL), at commit: a
  // round trip fewer in the relay's transaction. PostgreSQL sends a transaction's identical
  // notifications once.
  const inserted = await insertDeliveries(tx, deliveries, now, DELIVERY_CHANNEL);
  return inserted.length;
}
