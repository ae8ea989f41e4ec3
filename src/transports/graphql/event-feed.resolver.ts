import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { GatewayContext } from '../../access/graphql-context';
import { EpochMs } from '../../common/scalars';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, type FeedItem, type FeedPage } from './event-feed';

@ObjectType('FeedEvent', { description: 'One webhook event of the feed, with the `data` its webhook carries.' })
export class FeedEventType implements FeedItem {
  @Field(() => ID, { description: '`evt_…`, the `webhook-id` of its deliveries' })
  eventId: string;
  @Field(() => String, { description: 'order.accepted, order.rejected, token.transfer_completed or token.transfer_failed' })
  event_type: string;
  @Field(() => GraphQLJSONObject, { description: "The webhook `data`: the event type's payload in the OpenAPI documents' webhooks section" })
  data: FeedItem['data'];
  @Field(() => EpochMs)
  occurredAt: Date;
  /** Not a field: whose event it is, for the visibility rule of `FeedEvent`. */
  distributorId: string;
}

@ObjectType('EventFeedPage')
export class EventFeedPageType implements FeedPage {
  @Field(() => [FeedEventType])
  items: FeedEventType[];
  @Field(() => String, { nullable: true, description: 'Pass as `after` to read on; null only when the feed is empty and no `after` was given' })
  nextCursor: string | null;
  @Field(() => Boolean, { description: 'More events follow right now' })
  hasMore: boolean;
}

@Resolver()
export class EventFeedResolver {
  @Query(() => EventFeedPageType, { description: "The caller's webhook events in log order after a cursor (ops: every distributor's)." })
  events(
    @Arg('after', () => String, { nullable: true, description: '`nextCursor` of the previous page; none: from the oldest kept event' }) after: string | null,
    @Arg('limit', () => Int, { nullable: true, description: `1 to ${FEED_MAX_LIMIT} (default ${FEED_DEFAULT_LIMIT})` }) limit: number | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<FeedPage> {
    return ctx.services.eventFeed.page(ctx.em, ctx.access, after, limit);
  }
}
