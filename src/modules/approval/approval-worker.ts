import { logger } from '../../common/logger';

/** How often approved requests are checked for a passed delay. */
export const APPROVAL_POLL_MS = 5_000;

/**
 * Runs `runDue` every `pollMs` while started. Safe with several gateways: each request is taken
 * under a row lock with `skip locked` and moved out of `approved` in the transaction that runs it.
 */
export function approvalWorker(runDue: () => Promise<number>, pollMs: number): { start(): void; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = runDue()
      .catch((err) => logger.warn({ err }, 'approval worker pass failed'))
      .finally(() => {
        if (timer) timer = setTimeout(tick, pollMs).unref();
      });
  };
  return {
    start() {
      if (timer) return;
      timer = setTimeout(tick, pollMs).unref();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
