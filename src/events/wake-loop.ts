import { logger } from '../common/logger';

/**
 * Runs a pass of work whenever woken (by a poll timer, a NOTIFY, or the process's own writes),
 * one pass at a time. Wake-ups during a pass coalesce into one more pass after it, and a pass
 * that returns `true` (it found a full batch) asks for another at once. The event relay and the
 * webhook delivery worker both run on one.
 */
export class WakeLoop {
  private running = false;
  private again = false;
  private stopped = true;
  private poller: NodeJS.Timeout | null = null;

  constructor(
    /** Named in the log line when a pass fails. */
    private readonly name: string,
    private readonly pass: () => Promise<boolean>,
    private readonly pollMs: number,
  ) {}

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

  /** Stops waking; resolves once the pass under way, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    while (this.running) await new Promise((r) => setTimeout(r, 5));
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain()
      .catch((err) => logger.error({ err }, `${this.name} failed`))
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
