import type { NonEmptyArray } from 'type-graphql';
import { MODULE_PARTS } from '../../modules/manifests';
import { SubscriptionResolver } from './subscriptions.resolver';
import { EventFeedResolver } from './event-feed.resolver';

/** Every resolver of the schema: the transport's own and each module's (its manifest, src/modules/<m>/index.ts). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's buildSchema takes resolvers as NonEmptyArray<Function>
export const RESOLVERS: NonEmptyArray<Function> = [SubscriptionResolver, EventFeedResolver, ...MODULE_PARTS.resolvers];
