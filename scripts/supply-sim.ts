/**
 * The provider simulator on its own: `npm run supply-sim`.
 * SUPPLY_SIM_PORT (default 4100), SUPPLY_SIM_HOST (127.0.0.1), SUPPLY_SIM_FUNDS (comma-separated
 * fund ids, or `any`), SUPPLY_SIM_PROVIDER (supply-sim), SUPPLY_SIM_CALLBACK_URL and
 * SUPPLY_SIM_CALLBACK_SECRET (to call the gateway back). Point the gateway at it with
 * SUPPLY_PROVIDERS='{"supply-sim":{"url":"http://127.0.0.1:4100","callbackSecret":"…"}}'.
 */
import { SupplySimulator } from '../src/supply/simulator';

async function main() {
  const env = process.env;
  const funds = (env.SUPPLY_SIM_FUNDS ?? 'any').trim();
  const simulator = new SupplySimulator({
    providerId: env.SUPPLY_SIM_PROVIDER || 'supply-sim',
    funds:
      funds === 'any'
        ? 'any'
        : funds
            .split(',')
            .map((f) => f.trim())
            .filter(Boolean),
    callbackUrl: env.SUPPLY_SIM_CALLBACK_URL || undefined,
    callbackSecret: env.SUPPLY_SIM_CALLBACK_SECRET || undefined,
  });
  const url = await simulator.start(Number(env.SUPPLY_SIM_PORT ?? 4100), env.SUPPLY_SIM_HOST || '127.0.0.1');
  console.log(`supply simulator ${simulator.providerId} listening on ${url} (funds: ${funds})`);
  const stop = () => void simulator.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
