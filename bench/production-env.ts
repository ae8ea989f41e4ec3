import { randomBytes } from 'node:crypto';
import { BENCH_QUOTAS } from './quotas';

/**
 * The environment a bench's gateway starts under when it measures production: APP_ENV=production
 * and what production refuses to start without (src/config.ts), the keys random per run. Every
 * bench takes its gateway's environment from here, so a key production comes to require is added
 * once and no bench silently stops starting (test/performance/bench-smoke.test.ts runs each).
 */
export function productionEnv(): Record<string, string> {
  return {
    JWT_SIGNING_KEY: `bench-only-${randomBytes(24).toString('hex')}`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    METRICS_TOKEN: randomBytes(24).toString('hex'),
    ...BENCH_QUOTAS,
    APP_ENV: 'production',
  };
}

/**
 * The events benches' gateway (bench:events, bench:subscribers): APP_ENV=test, said explicitly.
 * Their market is the test factories' (bench/events-market.ts), whose token sits on a chain with
 * no agent key, which production refuses to start with (src/modules/chain/chain-readiness.ts);
 * what they measure (outbox relay, webhook worker, graphql-ws fan-out) runs the same code under
 * either. The keys are production's all the same, so only that one check differs.
 */
export function eventsBenchEnv(): Record<string, string> {
  return { ...productionEnv(), APP_ENV: 'test' };
}

/** `--quick` on the command line: the smoke run (small sizes, seconds), whose figures mean nothing. */
export const QUICK = process.argv.includes('--quick');
