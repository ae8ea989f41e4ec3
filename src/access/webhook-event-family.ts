/*
 * The webhook event families: each module that emits events a distributor may register a webhook
 * for declares them in its manifest (`webhookEvents`, src/access/module-manifest.ts); the list of
 * manifests folds them (src/modules/manifests.ts) and the composition root hands the fold to the
 * webhook module, which comes after every emitter. The types live here, below the modules, so
 * every module may name them.
 */

/** A logged event as the webhooks see it. */
export interface LoggedEvent {
  eventId: string;
  type: string;
  aggregateId: string;
  distributorId: string;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/** One family of webhook events: what a webhook may register for, which logged events it sends, and their `data`. */
export interface WebhookEventFamily {
  /**
   * Its place in the lists a distributor reads (the OpenAPI `eventType` enum and `webhooks`
   * section, the registration message), as they were published: the four described order events
   * first, then each additive family in the order it was added. Not the modules' order, which
   * may change without the published lists changing.
   */
  listed: number;
  /** The event types a webhook may register for (and the OpenAPI `eventType` enum lists). */
  types: readonly string[];
  /** Whether a logged event (by its log type) belongs to the family. */
  logs(type: string): boolean;
  /** The webhook event type the event is delivered as; null when it is not delivered. */
  deliveredAs(event: { type: string; payload: Record<string, unknown> }): string | null;
  /**
   * Its `data`, made of the event alone; or 'order': the order's webhook payload, which the webhook
   * module renders from the event's order, loaded once per batch (src/modules/webhook/webhook-payload.ts).
   */
  data: 'order' | ((event: LoggedEvent) => object);
}

/** The recorder names the webhook event in the payload (an order's transition names its own). */
export const namedInPayload = (e: { payload: Record<string, unknown> }): string | null =>
  typeof e.payload.webhookEvent === 'string' ? e.payload.webhookEvent : null;

/** The families of every module, folded in their published order (`listed`). */
export class WebhookEvents {
  /** Every event type a webhook may register for. */
  readonly types: readonly string[];

  readonly families: readonly WebhookEventFamily[];

  constructor(families: readonly WebhookEventFamily[]) {
    this.families = [...families].sort((a, b) => a.listed - b.listed);
    this.types = this.families.flatMap((f) => f.types);
  }

  isType(type: string): boolean {
    return this.types.includes(type);
  }

  familyOf(type: string): WebhookEventFamily | null {
    return this.families.find((f) => f.logs(type)) ?? null;
  }

  /** The webhook event type a logged event is delivered as, or null for none. */
  deliveredAs(event: { type: string; payload: Record<string, unknown> }): string | null {
    return this.familyOf(event.type)?.deliveredAs(event) ?? null;
  }
}
