import { ConfigError, isDevelopmentEnv } from '../../config';
import { hasAgentKey, type ChainsConfig } from '../../config/chains';

/**
 * Fails closed: outside development and test, every chain that carries a token of an active share
 * class must be configured with an agent key, else the gateway refuses to start, naming the chain.
 * The domain hands it those chains (`carrying`: src/modules/token/token-chains.queries.ts, from src/main.ts).
 */
export function assertChainsConfigured(carrying: readonly { chainId: string; tokens: string }[], chains: ChainsConfig | null, env: string): void {
  if (isDevelopmentEnv(env)) return;
  const missing = carrying.filter((r) => {
    const c = chains?.[r.chainId];
    return !c || !hasAgentKey(c);
  });
  if (missing.length) {
    throw new ConfigError(
      `Invalid configuration:\n${missing.map((r) => `  - CHAINS has no agent key for chain ${r.chainId}, which carries tokens of active share classes: ${r.tokens}`).join('\n')}`,
    );
  }
}
