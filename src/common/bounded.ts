import { logger } from './logger';

/** How long a stop waits for one dependency to close (the database pool, a signer's session). */
export const CLOSE_BOUND_MS = 2000;

/**
 * Waits for `work` at most `ms`: a stop must not wait on a database or a node that is away (a
 * pool's close waits for connections that never come). What did not finish in time is logged
 * and left to the process's end.
 */
export async function bounded(what: string, work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
    timer.unref();
  });
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      () => 'failed' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === 'late') logger.warn({ ms }, `${what} did not finish in time; left to the process's end`);
}
