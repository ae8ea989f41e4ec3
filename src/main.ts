import 'reflect-metadata';
// Before anything opens a file: what the gateway writes (the embedded database, the chain's state
// dumps, keys) is its own alone, 0700/0600, also in the anvil child that inherits this.
process.umask(0o077);
import { createGateway, GRAPHQL_PATH, REST_PREFIX } from './app';
import { CONSOLE_PATH } from './console/serve-console';
import { ManualClock, systemClock } from './common/clock';
import { logger } from './common/logger';
import { redactUrl } from './common/redact';
import { ConfigError, isDevelopmentEnv, loadConfig } from './config';
import { migrate, openDatabase } from './boot/orm';
import { DEMO_PROVIDER, isEmpty, seedDemo } from './boot/seed';
import { seedDemoOrders } from './boot/demo-orders';
import { seedDemoBook } from './boot/demo-book';
import { holdsOnlyDemoData, issueDemoAccess } from './boot/demo-access';
import { startDevSimulator } from './boot/dev-simulator';
import { describeAgentKey, embeddedChainConfig } from './config/chains';
import { startEmbeddedChain, type EmbeddedChain } from './modules/chain/embedded-anvil';
import { assertChainsConfigured } from './modules/chain/chain-readiness';
import { chainsCarryingActiveTokens } from './modules/token/token-chains.queries';
import { DB_CLOSE_MS, stopOnSignals } from './boot/stop';
import { bounded } from './common/bounded';
import { bringDemoOnChain } from './modules/settlement/demo-onchain';

async function main() {
  const config = loadConfig();
  // A start that may seed the demo deals its history on past days (src/boot/demo-history.ts): the
  // database and the gateways then share a clock the seeding sets and gives back; unset, it is the system's.
  const seedingClock = config.seedDemo ? new ManualClock() : null;
  const clock = seedingClock ?? systemClock;
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax, clock });
  const applied = await migrate(db.orm, config.databaseUrl);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  if (!db.embedded) logger.info('using PostgreSQL from DATABASE_URL');
  else logger.info({ dataDir: config.dataDir }, 'using the embedded PostgreSQL (set DATABASE_URL to use a server)');

  const em = db.orm.em.fork();
  try {
    assertChainsConfigured(await chainsCarryingActiveTokens(em), config.chains, config.env);
  } catch (err) {
    await db.close();
    throw err;
  }
  // Development and test without CHAINS: the gateway's own chain, as it runs its own PostgreSQL.
  let anvil: EmbeddedChain | null = null;
  let chains = config.chains ?? {};
  if (!config.chains && isDevelopmentEnv(config.env)) {
    anvil = await startEmbeddedChain({ stateDir: config.chainDataDir });
    chains = { '31337': embeddedChainConfig(anvil.rpcUrl) };
  }
  const demo = seedingClock && (await isEmpty(em)) ? await seedDemo(em, clock.now()) : null;
  if (demo) logger.info(demo, 'demo data seeded');
  // Before the chain: the book's 300 days predate the demo's token, minted below with each holder's balance.
  if (demo && seedingClock) logger.info(await seedDemoBook(config, db.orm, seedingClock, demo), 'demo book dealt over the NAV history');

  // Development: a provider simulator stands in for the supply-side platform unless providers are configured.
  const simulator =
    config.supplySimulator && Object.keys(config.supplyProviders).length === 0 ? await startDevSimulator(db.orm.em.fork(), DEMO_PROVIDER) : null;
  const supply = simulator ? { [DEMO_PROVIDER]: simulator.provider } : config.supplyProviders;
  const demoOnChain = anvil && config.seedDemo;
  const gateway = await createGateway({
    config,
    orm: db.orm,
    clock,
    supply,
    events: config.events,
    chains,
    reconciliationIntervalMs: config.reconciliationIntervalMs,
    reconcileAtOnce: !demoOnChain,
  });
  if (demoOnChain && gateway.services.chain && gateway.services.walletOnChain) {
    const onChain = await bringDemoOnChain(db.orm.em.fork(), gateway.services.chain, gateway.services.tokenLedger!, gateway.services.walletOnChain, '31337');
    if (onChain.tokens || onChain.wallets) logger.info(onChain, 'demo tokens deployed and demo holdings minted on the embedded chain');
  }
  gateway.startReconciliation();
  // Demo orders move through the services (history and events as any order's): once they exist, on chain where there is one.
  if (demo) logger.info(await seedDemoOrders(db.orm.em.fork(), gateway.services, demo), 'demo orders placed');
  const port = await gateway.listen(config.port, config.host);
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const scheme = config.tls ? 'https' : 'http';
  // Outside development an unmapped Host is refused and there is no Sandbox: the banner says what is there instead.
  const development = isDevelopmentEnv(config.env);
  const lines = [
    `REST    ${scheme}://${shown}:${port}${REST_PREFIX}   ${
      development ? `(try GET ${REST_PREFIX}/funds/shareclass/all)` : '(surface R: the hosts ops bound to a distributor; surface O: Bearer tokens)'
    }`,
    `GraphQL ${scheme}://${shown}:${port}${GRAPHQL_PATH}   ${development ? '(Apollo Sandbox in development)' : '(ops and surface-O Bearer tokens; no Sandbox)'}`,
  ];
  // Credentials are handed out by a development start into the demo's database only: never into one holding real data.
  const handOut = config.env === 'development' && (await holdsOnlyDemoData(db.orm.em.fork()));
  if (!handOut)
    lines.push(
      `Console ${scheme}://${shown}:${port}${CONSOLE_PATH}/   (sign in with an ops token: npm run ops-token -- <name> --role <viewer|operator|approver|admin>)`,
    );
  if (handOut) {
    const access = await issueDemoAccess(db.orm.em.fork(), gateway.services);
    // The token rides in the #fragment, which the browser never sends: the page reads it and signs in.
    lines.push(`Console http://${shown}:${port}${CONSOLE_PATH}/#token=${access.opsToken}   (signs in as ops, role admin)`);
    lines.push(`Ops token for Sandbox (header Authorization): Bearer ${access.opsToken}   (admin)`);
    lines.push(
      `Console http://${shown}:${port}${CONSOLE_PATH}/#token=${access.approverToken}   (signs in as a second ops principal, role approver: approves what the admin requests)`,
    );
    if (access.surfaceO) {
      lines.push(
        `Surface O as ${access.surfaceO.partnerId}: POST ${REST_PREFIX}/auth/token with x-api-key ${access.surfaceO.apiKey} and x-api-secret ${access.surfaceO.apiSecret}`,
      );
    }
  }
  for (const c of Object.values(chains)) {
    const where = c.embedded
      ? `(embedded anvil, ${anvil?.stateFile ? `state in ${config.chainDataDir}` : 'state in memory'})`
      : `(${describeAgentKey(c)}, ${c.confirmations} confirmations)`;
    lines.push(`Chain    ${c.chainId} ${redactUrl(c.rpcUrls[0])}   ${where}`);
  }
  if (simulator) lines.push(simulator.connect(`http://${shown === 'localhost' ? '127.0.0.1' : shown}:${port}`));
  process.stdout.write(`\nFund distribution gateway (${config.env}) is up:\n  ${lines.join('\n  ')}\n\n`);

  stopOnSignals(config.shutdownDrainMs, async () => {
    // Out of the load balancer's rotation first, serving meanwhile; then no new connections, in-flight ones finished.
    gateway.drain();
    if (config.shutdownDrainMs) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    await gateway.close();
    await simulator?.simulator.stop();
    await anvil?.stop();
    await bounded('closing the database pool', db.close(), DB_CLOSE_MS);
  });
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    logger.fatal({ err }, 'failed to start');
  }
  process.exit(1);
});
