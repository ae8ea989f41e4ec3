import { logger } from '../common/logger';

/**
 * How long a stop may take after the drain window before the process exits anyway (code 1): every
 * wait in it is bounded (requests in flight 5 s, the loops 2 s each at once, the lease's release
 * and the pool's close 2 s each), so reaching it is a bug.
 */
export const STOP_LIMIT_MS = 15_000;

/** How long the stop waits for the database pool to close. */
export const DB_CLOSE_MS = 2000;

/** The line a stop that outlasted its limit leaves before the forced exit (exit code 1). */
export const FORCED_EXIT = 'stop did not finish in time: forced exit';

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0; exits 1 with FORCED_EXIT if it has not
 * finished within `drainMs` + STOP_LIMIT_MS (docs/operations.md, "Stopping").
 */
export function stopOnSignals(drainMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, drainMs }, 'shutting down');
    setTimeout(() => {
      logger.error({ limitMs: drainMs + STOP_LIMIT_MS }, FORCED_EXIT);
      process.exit(1);
    }, drainMs + STOP_LIMIT_MS).unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
