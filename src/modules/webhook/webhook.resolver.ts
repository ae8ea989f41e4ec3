import type { EntityRecord } from '../../persistence/read-record';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import { EpochMs } from '../../common/scalars';
import { DeliveryStatus, Webhook, WebhookAttempt, WebhookDelivery, WebhookStatus } from './webhook.entity';
import { DeliveriesReset, RegisterWebhookInput, TestWebhookInput, WebhookCheck, WebhookTestResult, WebhookWithSecret } from './webhook.types';

@Resolver(() => Webhook)
export class WebhookResolver {
  @Query(() => [Webhook], { description: "The caller's webhooks (ops: all)." })
  webhooks(@Ctx() ctx: ModuleContext<'webhook'>): Promise<Webhook[]> {
    return ctx.services.webhook.list(ctx);
  }

  @Query(() => WebhookCheck, { description: 'Whether the caller has webhooks at this URL, and for which event types.' })
  checkWebhook(@Arg('endpoint_url', () => String, { nullable: true }) endpointUrl: string | null, @Ctx() ctx: ModuleContext<'webhook'>): Promise<WebhookCheck> {
    return ctx.services.webhook.check(ctx, endpointUrl);
  }

  @Mutation(() => WebhookWithSecret, { description: 'Register one event type at one HTTPS endpoint; the signing secret is shown this once.' })
  registerWebhook(@Arg('input', () => RegisterWebhookInput) input: RegisterWebhookInput, @Ctx() ctx: ModuleContext<'webhook'>): Promise<WebhookWithSecret> {
    return ctx.services.webhook.register(ctx, input);
  }

  @Mutation(() => WebhookTestResult, { description: 'Send a synthetic event marked `test: true` to the webhook now.' })
  testWebhook(@Arg('input', () => TestWebhookInput) input: TestWebhookInput, @Ctx() ctx: ModuleContext<'webhook'>): Promise<WebhookTestResult> {
    return ctx.services.webhook.test(ctx, input);
  }

  @Mutation(() => WebhookWithSecret, { description: 'Ops: a new signing secret; the previous one keeps signing too for `overlapSeconds` (default a day).' })
  rotateWebhookSecret(
    @Arg('webhookId', () => String) webhookId: string,
    @Arg('overlapSeconds', () => Int, { nullable: true }) overlapSeconds: number | null,
    @Ctx() ctx: ModuleContext<'webhook'>,
  ): Promise<WebhookWithSecret> {
    return ctx.services.webhook.rotateSecret(ctx, webhookId, overlapSeconds == null ? null : overlapSeconds * 1000);
  }

  @Mutation(() => Webhook, { description: 'Ops: enable or disable a webhook.' })
  setWebhookStatus(
    @Arg('webhookId', () => String) webhookId: string,
    @Arg('status', () => WebhookStatus) status: WebhookStatus,
    @Ctx() ctx: ModuleContext<'webhook'>,
  ): Promise<Webhook> {
    return ctx.services.webhook.setStatus(ctx, webhookId, status);
  }

  @Query(() => [WebhookDelivery], { description: 'Ops: deliveries, newest first; filters combine.' })
  webhookDeliveries(
    @Arg('webhookId', () => String, { nullable: true }) webhookId: string | null,
    @Arg('eventId', () => String, { nullable: true }) eventId: string | null,
    @Arg('status', () => DeliveryStatus, { nullable: true }) status: DeliveryStatus | null,
    @Arg('limit', () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: ModuleContext<'webhook'>,
    @Arg('orderId', () => String, { nullable: true, description: "Deliveries of this order's events (`OR######` or `ord_…`)" }) orderId?: string | null,
  ): Promise<WebhookDelivery[]> {
    return ctx.services.webhook.deliveries(ctx, { webhookId, eventId, status, limit, orderId });
  }

  @Mutation(() => DeliveriesReset, { description: 'Ops: deliver one event again (to one webhook, or all it went to), from the start of the schedule.' })
  async redeliverWebhookEvent(
    @Arg('eventId', () => String) eventId: string,
    @Arg('webhookId', () => String, { nullable: true }) webhookId: string | null,
    @Ctx() ctx: ModuleContext<'webhook'>,
  ): Promise<DeliveriesReset> {
    return { count: await ctx.services.webhook.redeliver(ctx, eventId, webhookId) };
  }

  @Mutation(() => DeliveriesReset, { description: 'Ops: put every failed delivery of a webhook created since `since` back on the schedule.' })
  async recoverWebhookDeliveries(
    @Arg('webhookId', () => String) webhookId: string,
    @Arg('since', () => EpochMs) since: Date,
    @Ctx() ctx: ModuleContext<'webhook'>,
  ): Promise<DeliveriesReset> {
    return { count: await ctx.services.webhook.recover(ctx, webhookId, since) };
  }

  @FieldResolver(() => String, { description: 'Same as eventType, as the description spells it' })
  event_type(@Root() webhook: Webhook): string {
    return webhook.eventType;
  }

  @FieldResolver(() => String, { description: 'Same as endpointUrl, as the description spells it' })
  endpoint_url(@Root() webhook: Webhook): string {
    return webhook.endpointUrl;
  }

  @FieldResolver(() => String, { description: '`DT######`' })
  distributorId(@Root() webhook: Webhook): string {
    return webhook.distributor.id;
  }
}

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @FieldResolver(() => ID)
  id(@Root() delivery: WebhookDelivery): string {
    return String(delivery.id);
  }

  @FieldResolver(() => String)
  webhookId(@Root() delivery: WebhookDelivery): string {
    return delivery.webhook.id;
  }

  @FieldResolver(() => [WebhookAttempt], { description: 'Ops: every attempt, with status code, latency and error' })
  async deliveryAttempts(@Root() delivery: WebhookDelivery, @Ctx() ctx: ModuleContext<'webhook'>): Promise<EntityRecord<WebhookAttempt>[]> {
    return ctx.loaders.manyBy(WebhookAttempt, 'delivery', { number: 'asc' }).load(String(delivery.id));
  }
}

@Resolver(() => WebhookAttempt)
export class WebhookAttemptResolver {
  @FieldResolver(() => ID)
  id(@Root() attempt: WebhookAttempt): string {
    return String(attempt.id);
  }
}
