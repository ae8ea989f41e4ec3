/**
 * Runs a bench script's `main` and ends the process with its outcome: 0, or 1 with the failure on
 * stderr (the gateway's timers and sockets would otherwise keep a finished bench alive).
 */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
