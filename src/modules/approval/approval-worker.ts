import { WakeLoop } from '../../events/wake-loop';

/** How often approved requests are checked for a passed delay. */
export const APPROVAL_POLL_MS = 5_000;

/**
 * Runs `runDue` every `pollMs` while started. Safe with several gateways: each request is taken
 * under a row lock with `skip locked` and moved out of `approved` in the transaction that runs it.
 * It runs on a WakeLoop as the other workers do: a database that is away is logged once per outage
 * (not at every pass), and a stop waits for the pass under way only within the loop's bound.
 */
export function approvalWorker(runDue: () => Promise<number>, pollMs: number): { start(): void; stop(): Promise<void> } {
  const loop = new WakeLoop(
    'approval worker',
    async () => {
      await runDue();
      return false;
    },
    pollMs,
  );
  return {
    start() {
      if (loop.isStopped) loop.start();
    },
    stop: () => loop.stop(),
  };
}
