import type { NonEmptyArray } from 'type-graphql';
import { HealthResolver } from '../modules/health/health.resolver';
import { InvestorResolver } from '../modules/investor/investor.resolver';
import { NavResolver } from '../modules/nav/nav.resolver';
import { ShareClassResolver } from '../modules/share-class/share-class.resolver';
import { WebhookAttemptResolver, WebhookDeliveryResolver, WebhookResolver } from '../modules/webhook/webhook.resolver';
import { SubscriptionResolver } from '../events/subscriptions.resolver';

/** Every resolver of the schema, one line per module. */
export const RESOLVERS: NonEmptyArray<Function> = [HealthResolver, ShareClassResolver, NavResolver, InvestorResolver, WebhookResolver, WebhookDeliveryResolver, WebhookAttemptResolver, SubscriptionResolver];
