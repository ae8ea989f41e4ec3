import { isDatabaseUnavailable } from '../common/errors';
import { logger } from '../common/logger';
import { OutageLog } from '../common/outage-log';

/**
 * Runs a pass of work whenever woken (by a poll timer, a NOTIFY, or the process's own writes),
 * one pass at a time. Wake-ups during a pass coalesce into one more pass after it, and a pass
 * that returns `true` (it found a full batch) asks for another at once. The event relay and the
 * webhook delivery worker both run on one.
 *
 * A pass that fails because the database is away is logged once per outage (OutageLog) and the
 * loop backs off, ignoring wake-ups until the wait is over; any other failure is logged at error.
 */
export class WakeLoop {
  private running = false;
  private again = false;
  private stopped = true;
  private poller: NodeJS.Timeout | null = null;
  private resumeAt = 0;
  private readonly outage: OutageLog;

  constructor(
    /** Named in the log line when a pass fails. */
    private readonly name: string,
    private readonly pass: () => Promise<boolean>,
    private readonly pollMs: number,
  ) {
    this.outage = new OutageLog(`${name}: database`, Math.max(pollMs, 250));
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    this.stopped = false;
    this.poller = setInterval(() => this.wake(), this.pollMs);
    this.poller.unref();
    this.wake();
  }

  /**
   * Stops waking; resolves once the pass under way, if any, has finished, or after `graceMs`
   * when it waits on a database that is away (its transaction rolls back with the process: the
   * work stays in the database for the next pass, here or in another instance).
   */
  async stop(graceMs = 2000): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    const until = Date.now() + graceMs;
    while (this.running && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  }

  /** A failure of work the loop started outside a pass (a delivery attempt): logged like a pass's. */
  failed(err: unknown, fields: Record<string, unknown> = {}): void {
    if (isDatabaseUnavailable(err)) this.resumeAt = Date.now() + this.outage.lost(err);
    else logger.error({ err, ...fields }, `${this.name} failed`);
  }

  wake(): void {
    if (this.stopped || Date.now() < this.resumeAt) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain()
      .then(() => this.outage.back())
      .catch((err) => this.failed(err))
      .finally(() => {
        this.running = false;
      });
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      if (await this.pass()) this.again = true;
    } while (this.again && !this.stopped);
  }
}
