import { EventFeedDocument } from '../generated/graphql';
import { queryValue, route, type RouteAuth } from '../route';
import { eventFeedPage, str } from '../openapi/schemas';

/** `limit` as sent: digits, else 0 so the feed answers with its range message. */
function limitOf(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  return /^\d{1,7}$/.test(raw) ? Number(raw) : 0;
}

/** `GET /events?after=&limit=`: the caller's webhook events in log order (both surfaces, additive). */
export function eventFeedRoutes(auth: Extract<RouteAuth, 'host' | 'bearer'>) {
  return [
    route({
      method: 'GET',
      path: '/events',
      auth,
      doc: {
        summary: "The distributor's webhook events in log order, after a cursor",
        description: 'Catch up on missed webhooks: `data` is what the webhook carries. Events are served for 30 days.',
        query: {
          after: str('`nextCursor` of the previous page; none: the oldest kept event'),
          limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'Default 100' },
        },
        data: eventFeedPage,
        errors: { 400: ['invalid cursor', 'limit must be an integer from 1 to 1000'] },
        additive: true,
      },
      document: EventFeedDocument,
      variables: (req) => ({ after: queryValue(req, 'after') ?? null, limit: limitOf(queryValue(req, 'limit')) }),
      data: (r) => r.events,
    }),
  ];
}
