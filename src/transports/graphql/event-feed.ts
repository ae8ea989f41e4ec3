import type { EntityManager } from '@mikro-orm/postgresql';
import { badRequest } from '../../common/errors';
import type { Clock } from '../../common/clock';
import type { Access } from '../../access/access';
import { pageSize } from '../../persistence/pagination';
import { orderWebhookData, webhookOrders, type WebhookData } from '../../modules/webhook/webhook-payload';

/** How long the feed serves an event (docs/api.md, "Event feed"). */
export const FEED_RETENTION_DAYS = 30;
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 1000;

export interface FeedItem {
  eventId: string;
  /** The distributor whose event it is (not a field: the visibility rule of `FeedEvent` reads it). */
  distributorId: string;
  event_type: string;
  data: WebhookData;
  occurredAt: Date;
}

export interface FeedPage {
  items: FeedItem[];
  /** Where the next call starts: the last item's cursor, or `after` again when nothing was new. */
  nextCursor: string | null;
  /** More events follow right now (call again at once rather than after a pause). */
  hasMore: boolean;
}

/** Whose events a caller reads: a distributor its own, ops every distributor's, nobody none (UNAUTHENTICATED). */
function feedOwner(access: Access): string | null {
  const scope = access.scope();
  return scope.all ? null : scope.distributorId;
}

interface FeedRow {
  event_id: string;
  distributor_id: string;
  aggregate_id: string;
  payload: Record<string, unknown> | string;
  occurred_at: Date | string;
  feed_position: string;
}

/**
 * The event feed: the webhook events (order.accepted, order.rejected, token.transfer_completed,
 * token.transfer_failed) of the caller's orders, in the order the relay announced them, with the
 * `data` their webhooks carry. A receiver that was down catches up from its last cursor.
 */
export class EventFeedService {
  constructor(private readonly clock: Clock) {}

  async page(em: EntityManager, access: Access, after: string | null, limit: number | null): Promise<FeedPage> {
    const owner = feedOwner(access);
    after ??= null; // an absent GraphQL argument arrives undefined
    if (after !== null && after !== '' && !/^\d{1,18}$/.test(after)) throw badRequest('invalid cursor');
    const size = pageSize(limit, FEED_MAX_LIMIT, FEED_DEFAULT_LIMIT);
    const since = new Date(this.clock.now().getTime() - FEED_RETENTION_DAYS * 24 * 3600_000);
    const params: unknown[] = [after || '0', since];
    if (owner !== null) params.push(owner);
    params.push(size + 1);
    // Only relayed events have a feed position: what the feed shows has committed and been announced.
    const rows = await em.execute<FeedRow[]>(
      `select event_id, aggregate_id, distributor_id, payload, occurred_at, feed_position from "event"
       where feed_position > ? and occurred_at >= ? and type = 'order.transition' and payload->>'webhookEvent' is not null
       ${owner !== null ? 'and distributor_id = ?' : 'and distributor_id is not null'}
       order by feed_position limit ?`,
      params,
    );
    const page = rows.slice(0, size);
    const orders = await webhookOrders(
      em,
      page.map((r) => r.aggregate_id),
    );
    const items = page.map((r) => {
      const payload = typeof r.payload === 'string' ? (JSON.parse(r.payload) as Record<string, unknown>) : r.payload;
      const occurredAt = new Date(r.occurred_at);
      return {
        eventId: r.event_id,
        distributorId: r.distributor_id,
        event_type: String(payload.webhookEvent),
        data: orderWebhookData({ eventId: r.event_id, occurredAt, payload }, orders.get(r.aggregate_id) ?? null),
        occurredAt,
      };
    });
    const nextCursor = page.length ? String(page[page.length - 1].feed_position) : after || null;
    return { items, nextCursor, hasMore: rows.length > size };
  }
}
