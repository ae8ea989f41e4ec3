import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { WakeLoop } from '../../events/wake-loop';
import { bounded } from '../../common/bounded';
import { runInScope } from '../../common/request-scope';
import { DeliveryStatus, Webhook, WebhookStatus } from './webhook.entity';
import { TOPICS, type DeliveryOutcomeMessage, type EventBus } from '../../events/pubsub';
import type { AttemptOutcome, WebhookSender } from './webhook-sender';
import { claimDueDeliveries, recordAttempt } from './webhook.queries';

/**
 * When each attempt is made, counted from the failure of the one before: immediately, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (the Standard Webhooks schedule). After the last, the
 * delivery is dead.
 */
export const RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000];
/** ±20% on every delay, so endpoints that failed together are not retried together. */
export const JITTER = 0.2;

export function jittered(ms: number, random = Math.random): number {
  return Math.round(ms * (1 - JITTER + 2 * JITTER * random()));
}

/** A delivery as claimed for one attempt: what the attempt and its record need. */
export interface ClaimedDelivery {
  id: string;
  /** The attempt's number (the claim counted it). */
  attempt: number;
  scheduleStep: number;
  webhookId: string;
  eventId: string;
  eventType: string;
  distributorId: string;
  body: string;
  test: boolean;
}

export interface DeliveryRecorder {
  /** Records an attempt and moves the delivery on (success, next retry, dead); announces the outcome. */
  record(claim: ClaimedDelivery, outcome: AttemptOutcome, opts: { retry: boolean }): Promise<void>;
  /** Looks for due deliveries now. */
  wake(): void;
}

export interface WorkerOptions {
  pollMs: number;
  concurrency: number;
  perEndpoint: number;
  timeoutMs: number;
}

/**
 * The delivery worker. Claims due deliveries with one `UPDATE … FOR UPDATE SKIP LOCKED`
 * statement that marks them in flight under a lease, so instances sharing the database never run
 * one attempt twice at once; a claim whose worker died is taken again when the lease runs out.
 * Attempts run outside any transaction (no transaction waits on a network call), at most
 * `concurrency` at once and at most `perEndpoint` per webhook, so one slow endpoint cannot hold
 * up the others. Each job forks its own EntityManager.
 */
export class DeliveryWorker implements DeliveryRecorder {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly loop: WakeLoop;
  /** Aborted by `stop`: ends this worker's attempts under way, and any the pass under way starts. */
  private shutdown = new AbortController();

  constructor(
    private readonly orm: MikroORM,
    private readonly bus: EventBus,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly options: WorkerOptions,
  ) {
    this.loop = new WakeLoop('webhook delivery worker', () => this.claimAndStart(), options.pollMs);
  }

  start(): void {
    this.shutdown = new AbortController();
    this.loop.start();
  }

  /**
   * Stops claiming, gives the attempts under way `graceMs` to finish, then ends them; each is
   * recorded as failed and retried later (by this or another instance), so none is lost. Recording
   * needs the database: one that is away gets `graceMs` more, then the attempt is left to its
   * claim's lease (another worker takes it over), as a stop must not wait on a connection that
   * cannot come.
   */
  async stop(graceMs = 2000): Promise<void> {
    const claiming = this.loop.stop(graceMs);
    const grace = new Promise((r) => setTimeout(r, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    this.shutdown.abort();
    await claiming;
    await bounded('recording the ended webhook attempts', Promise.allSettled([...this.inFlight]), graceMs);
  }

  wake(): void {
    this.loop.wake();
  }

  /** Claims what this worker has room for and starts the attempts; true when it filled every slot. */
  private async claimAndStart(): Promise<boolean> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0 || this.loop.isStopped) return false;
    const claimed = await this.claim(free);
    const webhooks = claimed.length ? await this.orm.em.fork().find(Webhook, { id: { $in: [...new Set(claimed.map((c) => c.webhookId))] } }) : [];
    for (const c of claimed) {
      const job: Promise<void> = this.process(c, webhooks.find((w) => w.id === c.webhookId) ?? null)
        .catch((err) => this.loop.failed(err, { deliveryId: c.id }))
        .finally(() => {
          this.inFlight.delete(job);
          this.wake();
        });
      this.inFlight.add(job);
    }
    return claimed.length === free;
  }

  /** Marks up to `limit` due deliveries in flight for this worker and returns them. */
  async claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = this.clock.now();
    // Longer than any attempt can take; a claim still held after it belongs to a worker that died.
    const lease = new Date(now.getTime() + this.options.timeoutMs + 5_000);
    const rows = await claimDueDeliveries(this.orm.em.fork(), now, lease, this.options.perEndpoint, limit);
    return rows.map((r) => ({
      id: String(r.id),
      attempt: Number(r.attempts),
      scheduleStep: Number(r.schedule_step),
      webhookId: String(r.webhook_id),
      eventId: String(r.event_id),
      eventType: String(r.event_type),
      distributorId: String(r.distributor_id),
      body: String(r.body),
      test: Boolean(r.test),
    }));
  }

  private async process(claim: ClaimedDelivery, webhook: Webhook | null): Promise<void> {
    if (!webhook || webhook.status !== WebhookStatus.active) {
      await this.record(
        claim,
        { statusCode: null, latencyMs: 0, success: false, error: 'webhook is disabled', retryAfterMs: null, gone: false },
        { retry: false },
      );
      return;
    }
    const outcome = await this.sender.send(webhook, { eventId: claim.eventId, body: claim.body }, this.shutdown.signal);
    await this.record(claim, outcome, { retry: !claim.test });
  }

  /**
   * One statement: the attempt row, and the delivery moved on only while this claim still holds
   * it (in flight, same attempt count) — a claim that outlived its lease records its attempt but
   * leaves the delivery to the worker that took it over.
   */
  async record(claim: ClaimedDelivery, outcome: AttemptOutcome, opts: { retry: boolean }): Promise<void> {
    const now = this.clock.now();
    let status: DeliveryStatus;
    let step = claim.scheduleStep;
    let next: Date = now;
    if (outcome.success) status = DeliveryStatus.succeeded;
    else if (outcome.gone || !opts.retry || step + 1 >= RETRY_SCHEDULE_MS.length) status = DeliveryStatus.dead;
    else {
      status = DeliveryStatus.pending;
      step += 1;
      next = new Date(now.getTime() + Math.max(jittered(RETRY_SCHEDULE_MS[step]), outcome.retryAfterMs ?? 0));
    }
    const completedAt = status === DeliveryStatus.pending ? null : now;
    const attempt = (em: EntityManager) =>
      recordAttempt(em, {
        deliveryId: claim.id,
        attempt: claim.attempt,
        attemptedAt: now,
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
        success: outcome.success,
        error: outcome.error,
        status,
        scheduleStep: step,
        nextAttemptAt: next,
        completedAt,
      });
    try {
      // The attempt and the delivery's new state are one statement, atomic on its own: no
      // transaction around it (an ORM transaction costs ~0.4 ms of CPU and two round trips more,
      // docs/benchmarks.md). A 410 also disables the webhook, in the same transaction: nobody sees
      // the delivery finished while its webhook still takes events.
      if (!outcome.gone) await attempt(this.orm.em.fork());
      else
        await this.orm.em.fork().transactional(async (em) => {
          await attempt(em);
          await runInScope({ actor: 'webhook-worker' }, async () => {
            const webhook = await em.findOne(Webhook, claim.webhookId);
            if (webhook && webhook.status === WebhookStatus.active) {
              webhook.status = WebhookStatus.disabled;
              webhook.disabledReason = 'endpoint answered 410 Gone';
              await em.flush();
            }
          });
        });
    } catch (err) {
      if ((err as { code?: string }).code === '23503') return; // the delivery was deleted meanwhile (its webhook went)
      throw err;
    }
    const message: DeliveryOutcomeMessage = {
      deliveryId: claim.id,
      webhookId: claim.webhookId,
      eventId: claim.eventId,
      eventType: claim.eventType,
      distributorId: claim.distributorId,
      attempt: claim.attempt,
      statusCode: outcome.statusCode,
      success: outcome.success,
      error: outcome.error,
      status,
      latencyMs: outcome.latencyMs,
      attemptedAt: now.getTime(),
      nextAttemptAt: status === DeliveryStatus.pending ? next.getTime() : null,
      test: claim.test,
    };
    await this.bus.publish(TOPICS.delivery, message);
  }
}
