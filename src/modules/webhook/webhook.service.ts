import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { dealingDates, DEFAULT_CALENDAR } from '../dealing';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { opaqueId } from '../../common/ids';
import type { ServiceContext } from '../../access/service-context';
import { optionalEpochMs, required } from '../../common/validate';
import { DomainEvent } from '../../events/event.entity';
import type { DeliveryRecorder } from './webhook-delivery';
import type { WebhookSender } from './webhook-sender';
import { Distributor, distributorNotFound, ShareClassGrant } from '../distributor';
import { EndpointGuard, ForbiddenAddress } from './endpoint-guard';
import { DeliveryStatus, Webhook, WebhookAttempt, WebhookDelivery, WebhookStatus } from './webhook.entity';
import { statusOfEvent } from '../order';
import { deliveryNotFound, endpointForbidden, endpointNotHttps, eventTypeInvalid, eventTypeMismatch, webhookExists, webhookNotFound } from './webhook.errors';
import type { WebhookData } from './webhook-payload';
import { webhookBody } from './webhook-body';
import type { WebhookEvents } from '../../access/webhook-event-family';
import { sampleWebhookData } from './webhook-samples';
import { encryptSecret, newSecret } from './webhook-secret';

export interface WebhookServiceDeps {
  clock: Clock;
  guard: EndpointGuard;
  sender: WebhookSender;
  recorder: DeliveryRecorder;
  secretKey: Buffer;
  events: WebhookEvents; // every module's webhook events: the manifests' fold, handed in by the root
}

/** How long a rotated-out secret keeps signing, unless ops say otherwise. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3600_000;

/**
 * Webhook registrations of distributors, and the ops controls over their deliveries. A webhook
 * belongs to the distributor that registered it: another distributor's answers like a missing one.
 */
export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  /** The caller's webhooks (ops: every webhook), oldest first. */
  async list(ctx: ServiceContext): Promise<Webhook[]> {
    return ctx.em.find(Webhook, ctx.access.ownedBy(), { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /** Registers one event type at one HTTPS endpoint; the secret is returned this once. */
  async register(
    ctx: ServiceContext,
    input: { event_type?: unknown; endpoint_url?: unknown; distributorId?: unknown },
  ): Promise<{ webhook: Webhook; secret: string }> {
    ctx.access.requireCaller();
    const eventType = this.eventType(input.event_type);
    const endpointUrl = required(input.endpoint_url, 'endpoint_url').trim();
    const url = parseHttps(endpointUrl);
    await this.assertPublic(url);
    const distributorId = await this.owner(ctx, input.distributorId);
    if (await ctx.em.count(Webhook, { distributor: distributorId, endpointUrl, eventType, status: WebhookStatus.active })) throw webhookExists(eventType);
    const secret = newSecret();
    const webhook = ctx.em.create(Webhook, {
      id: opaqueId('wh'),
      distributor: ctx.em.getReference(Distributor, distributorId),
      eventType,
      endpointUrl,
      secretCipher: encryptSecret(this.deps.secretKey, secret),
    });
    try {
      await ctx.em.flush();
    } catch (err) {
      // A concurrent registration of the same URL and event won the unique index: the same answer as the check above.
      if (err instanceof UniqueConstraintViolationException) throw webhookExists(eventType);
      throw err;
    }
    return { webhook, secret };
  }

  /** Whether the caller has webhooks at `endpoint_url`, and for which event types. */
  async check(ctx: ServiceContext, endpointUrl: unknown): Promise<{ exists: boolean; event_types: string[] }> {
    ctx.access.requireCaller();
    const url = required(endpointUrl, 'endpoint_url').trim();
    const hooks = await ctx.em.find(Webhook, { endpointUrl: url, ...ctx.access.ownedBy() }, { orderBy: { createdAt: 'asc' } });
    const types = [...new Set(hooks.map((h) => h.eventType))];
    return { exists: hooks.length > 0, event_types: types };
  }

  /**
   * Sends a synthetic event shaped like the real one, `test: true`, to the webhook now, and
   * says whether the endpoint took it. One attempt, no retries; it is recorded like any delivery.
   */
  async test(ctx: ServiceContext, input: { event_type?: unknown; webhook_id?: unknown }): Promise<{ success: boolean; message: string }> {
    ctx.access.requireCaller();
    const requestedType = required(input.event_type, 'event_type');
    const webhookId = required(input.webhook_id, 'webhook_id');
    const eventType = this.eventType(requestedType);
    const webhook = await this.getVisible(ctx, webhookId);
    if (webhook.eventType !== eventType) throw eventTypeMismatch();
    const now = this.deps.clock.now();
    const eventId = opaqueId('evt');
    const data = await this.syntheticData(ctx.em, webhook, eventType, eventId, now);
    const delivery = ctx.em.create(WebhookDelivery, {
      webhook,
      eventId,
      eventType,
      distributorId: webhook.distributor.id,
      body: webhookBody(eventType, data),
      test: true,
      status: DeliveryStatus.in_flight,
      attempts: 1,
      nextAttemptAt: now,
      leaseUntil: new Date(now.getTime() + 3600_000),
      createdAt: now,
    });
    await ctx.em.flush();
    const claim = {
      id: String(delivery.id),
      attempt: 1,
      scheduleStep: 0,
      webhookId: webhook.id,
      eventId,
      eventType,
      distributorId: webhook.distributor.id,
      body: delivery.body,
      test: true,
    };
    if (webhook.status !== WebhookStatus.active) {
      await this.deps.recorder.record(
        claim,
        { statusCode: null, latencyMs: 0, success: false, error: 'webhook is disabled', retryAfterMs: null, gone: false },
        { retry: false },
      );
      return { success: false, message: 'webhook is disabled' };
    }
    const outcome = await this.deps.sender.send(webhook, { eventId, body: delivery.body });
    await this.deps.recorder.record(claim, outcome, { retry: false });
    return outcome.success
      ? { success: true, message: `test event ${eventId} delivered (HTTP ${outcome.statusCode})` }
      : { success: false, message: `test event ${eventId} not delivered: ${outcome.error}` };
  }

  /** Ops: a new secret; the old one keeps signing alongside it for `overlapMs`. */
  async rotateSecret(ctx: ServiceContext, webhookId: unknown, overlapMs?: number | null): Promise<{ webhook: Webhook; secret: string }> {
    ctx.access.requireOps();
    const webhook = await this.getVisible(ctx, required(webhookId, 'webhook_id'));
    const secret = newSecret();
    webhook.previousSecretCipher = webhook.secretCipher;
    webhook.previousSecretUntil = new Date(this.deps.clock.now().getTime() + Math.max(0, overlapMs ?? DEFAULT_ROTATION_OVERLAP_MS));
    webhook.secretCipher = encryptSecret(this.deps.secretKey, secret);
    await ctx.em.flush();
    return { webhook, secret };
  }

  /** Ops: enable or disable a webhook (re-enabling one disabled after a 410). */
  async setStatus(ctx: ServiceContext, webhookId: unknown, status: WebhookStatus): Promise<Webhook> {
    ctx.access.requireOps();
    const webhook = await this.getVisible(ctx, required(webhookId, 'webhook_id'));
    webhook.status = status;
    webhook.disabledReason = status === WebhookStatus.disabled ? 'disabled by ops' : undefined;
    await ctx.em.flush();
    return webhook;
  }

  /** Ops: deliveries, newest first, of one webhook, one event or one order's events. */
  async deliveries(
    ctx: ServiceContext,
    filter: { webhookId?: string | null; eventId?: string | null; orderId?: string | null; status?: DeliveryStatus | null; limit?: number | null },
  ): Promise<WebhookDelivery[]> {
    ctx.access.requireOps();
    const where: Record<string, unknown> = {};
    if (filter.webhookId) where.webhook = filter.webhookId;
    if (filter.eventId) where.eventId = filter.eventId;
    if (filter.orderId) {
      const events = await ctx.em.find(DomainEvent, { aggregateType: 'order', aggregateId: filter.orderId }, { fields: ['eventId'] });
      const ids = events.map((e) => e.eventId).filter((id) => !filter.eventId || id === filter.eventId);
      if (!ids.length) return [];
      where.eventId = { $in: ids };
    }
    if (filter.status) where.status = filter.status;
    return ctx.em.find(WebhookDelivery, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: Math.min(Math.max(filter.limit ?? 100, 1), 1000) });
  }

  async attempts(ctx: ServiceContext, deliveryId: string): Promise<WebhookAttempt[]> {
    return ctx.em.find(WebhookAttempt, { delivery: deliveryId }, { orderBy: { number: 'asc', id: 'asc' } });
  }

  /** Ops: send one event again to its webhooks (or one of them), from the start of the schedule. */
  async redeliver(ctx: ServiceContext, eventId: unknown, webhookId?: string | null): Promise<number> {
    ctx.access.requireOps();
    const id = required(eventId, 'eventId');
    const deliveries = await ctx.em.find(WebhookDelivery, webhookId ? { eventId: id, webhook: webhookId } : { eventId: id });
    if (!deliveries.length) throw deliveryNotFound();
    return this.reschedule(ctx.em, deliveries);
  }

  /** Ops: every failed (dead) delivery of a webhook created since `since` goes back on the schedule. */
  async recover(ctx: ServiceContext, webhookId: unknown, since: unknown): Promise<number> {
    ctx.access.requireOps();
    const webhook = await this.getVisible(ctx, required(webhookId, 'webhook_id'));
    const from = optionalEpochMs(since, 'since') ?? new Date(0);
    const deliveries = await ctx.em.find(WebhookDelivery, { webhook, status: DeliveryStatus.dead, createdAt: { $gte: from } });
    return this.reschedule(ctx.em, deliveries);
  }

  /** The webhook if the caller may see it; otherwise `webhook_id not found`. */
  async getVisible(ctx: ServiceContext, webhookId: string): Promise<Webhook> {
    const webhook = await ctx.em.findOne(Webhook, { id: webhookId });
    if (!webhook || !ctx.access.sees(webhook.distributor.id)) throw webhookNotFound();
    return webhook;
  }

  private async reschedule(em: EntityManager, deliveries: WebhookDelivery[]): Promise<number> {
    const now = this.deps.clock.now();
    let count = 0;
    for (const d of deliveries) {
      if (d.status === DeliveryStatus.in_flight) continue; // an attempt is under way
      d.status = DeliveryStatus.pending;
      d.scheduleStep = 0;
      d.nextAttemptAt = now;
      d.completedAt = undefined;
      count++;
    }
    await em.flush();
    if (count) this.deps.recorder.wake();
    return count;
  }

  private eventType(value: unknown): string {
    const eventType = required(value, 'event_type');
    if (!this.deps.events.isType(eventType)) throw eventTypeInvalid(this.deps.events.types);
    return eventType;
  }

  /** Distributors register for themselves; ops name the distributor. */
  private async owner(ctx: ServiceContext, distributorId: unknown): Promise<string> {
    const own = ctx.access.ownDistributorId;
    if (own) return own;
    const id = ctx.access.recordId(required(distributorId, 'distributorId'), 'distributor');
    if (!id || !(await ctx.em.count(Distributor, { id }))) throw distributorNotFound();
    return id;
  }

  private async assertPublic(url: URL): Promise<void> {
    try {
      await this.deps.guard.resolve(url.hostname);
    } catch (err) {
      // A name that does not resolve yet is accepted; it is checked again at each delivery.
      if (err instanceof ForbiddenAddress) throw endpointForbidden();
    }
  }

  /** A synthetic event of any type a webhook may register for (WebhookEvents.types). */
  private async syntheticData(em: EntityManager, webhook: Webhook, eventType: string, eventId: string, now: Date): Promise<object> {
    const grant = await em.findOne(ShareClassGrant, { distributor: webhook.distributor.id }, { orderBy: { id: 'asc' } });
    const status = statusOfEvent(eventType);
    if (!status) {
      const sample = sampleWebhookData(eventType, { eventId, distributorId: webhook.distributor.id, shareClassId: grant?.shareClass.id ?? 'SC000000', now });
      if (!sample) throw eventTypeInvalid(this.deps.events.types);
      return sample;
    }
    return {
      eventId,
      orderId: opaqueId('ord'),
      flow: 'one_step',
      type: 'subscribe',
      status,
      previousStatus: status === 'accepted' || status === 'rejected' ? 'pending' : 'accepted',
      sequence: status === 'accepted' || status === 'rejected' ? 2 : 3,
      shareClassId: grant?.shareClass.id ?? 'SC000000',
      investorId: 'IN000000',
      distributorId: webhook.distributor.id,
      amount: '1000',
      currency: 'USD',
      tokenCount: null,
      settlementNav: status === 'settled' ? '1' : null,
      settlementTokens: status === 'settled' ? '1000' : null,
      settlementAmount: null,
      transferHash: status === 'settled' || status === 'failed' ? `0x${'0'.repeat(64)}` : null,
      reason: status === 'rejected' ? 'test rejection' : status === 'failed' ? 'test transfer failure' : null,
      ...syntheticDates(now),
      occurredAt: now.getTime(),
      test: true,
    } satisfies WebhookData;
  }
}

/** A fully qualified `https://` URL, or `endpoint_url must be HTTPS`. */
function parseHttps(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw endpointNotHttps();
  }
  if (url.protocol !== 'https:' || !url.hostname) throw endpointNotHttps();
  return url;
}

/** A test event's dealing dates: those of an order placed now on a share class without a calendar. */
function syntheticDates(now: Date): Pick<WebhookData, 'dealingDate' | 'cutOffAt' | 'expectedSettlementDate'> {
  const d = dealingDates(DEFAULT_CALENDAR, now, 1, 0);
  return { dealingDate: d.dealingDate, cutOffAt: d.cutOffAt.getTime(), expectedSettlementDate: d.expectedSettlementDate };
}
