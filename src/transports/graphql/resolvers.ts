import type { NonEmptyArray } from 'type-graphql';
import { MODULE_PARTS } from '../../modules/manifests';
import { SubscriptionResolver } from './subscriptions.resolver';
import { EventFeedResolver } from './event-feed.resolver';

/**
 * Every resolver of the schema: each module's (its manifest, src/modules/<m>/index.ts), in the
 * modules' order, then the transport's own; the schema lists root fields in this order (root-field-order.ts).
 */
const ALL = [...MODULE_PARTS.resolvers, SubscriptionResolver, EventFeedResolver];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's buildSchema takes resolvers as NonEmptyArray<Function>
export const RESOLVERS: NonEmptyArray<Function> = [ALL[0], ...ALL.slice(1)];
