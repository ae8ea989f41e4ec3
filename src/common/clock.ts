/**
 * Time comes from a clock the services are given, so tests can move it (token expiry,
 * NAV ranges) without fake timers, which stall PostgreSQL connection pools.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private offsetMs = 0;
  private fixed: Date | null = null;

  now(): Date {
    return this.fixed ? new Date(this.fixed.getTime()) : new Date(Date.now() + this.offsetMs);
  }

  /** Moves time forward; the clock keeps running from there. */
  advance(ms: number): void {
    if (this.fixed) this.fixed = new Date(this.fixed.getTime() + ms);
    else this.offsetMs += ms;
  }

  set(date: Date | null): void {
    this.fixed = date;
  }
}
