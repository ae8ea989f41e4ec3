import { logger } from './logger';
import { shortMessage } from './redact';

/** The first wait after a failure, and the longest, of a worker or connection that tries again. */
export const BACKOFF_FIRST_MS = 250;
export const BACKOFF_MAX_MS = 5_000;

/**
 * What a background worker or connection (event relay, delivery worker, LISTEN connection, Redis
 * client) tells the log about a dependency that went away: one warning when it goes, one line
 * when it is back, and how long to wait before the next try (doubling, at most BACKOFF_MAX_MS) —
 * never a line per failed try. An outage is not a bug: nothing here logs at error.
 */
export class OutageLog {
  private down = false;
  private failures = 0;

  constructor(
    /** What went away, as the log names it ("event relay: database", "rate-limit redis"). */
    private readonly what: string,
    private readonly firstMs = BACKOFF_FIRST_MS,
  ) {}

  get isDown(): boolean {
    return this.down;
  }

  /** Notes a failed try; logs the first of an outage. Returns how long to wait before the next. */
  lost(err: unknown): number {
    if (!this.down) logger.warn({ err: shortMessage(err) }, `${this.what} unavailable; retrying with backoff`);
    this.down = true;
    this.failures++;
    return Math.min(this.firstMs * 2 ** (this.failures - 1), BACKOFF_MAX_MS);
  }

  /** Notes a successful try; logs the end of an outage. */
  back(): void {
    if (this.down) logger.info(`${this.what} available again`);
    this.down = false;
    this.failures = 0;
  }
}
