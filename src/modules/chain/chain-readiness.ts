import type { EntityManager } from '@mikro-orm/postgresql';
import { ConfigError, isDevelopmentEnv } from '../../config';
import { hasAgentKey, type ChainsConfig } from '../../config/chains';

/**
 * Fails closed: outside development and test, every chain that carries a token of an active share
 * class must be configured with an agent key, else the gateway refuses to start, naming the chain.
 */
export async function assertChainsConfigured(em: EntityManager, chains: ChainsConfig | null, env: string): Promise<void> {
  if (isDevelopmentEnv(env)) return;
  const rows = await em.execute<{ chain_id: string; tokens: string }[]>(
    `select t.chain_id, string_agg(t.id || ' (' || t.share_class_id || ')', ', ' order by t.id) as tokens
     from token t join share_class sc on sc.id = t.share_class_id where sc.status = 'active' group by t.chain_id order by t.chain_id`,
  );
  const missing = rows.filter((r) => {
    const c = chains?.[r.chain_id];
    return !c || !hasAgentKey(c);
  });
  if (missing.length) {
    throw new ConfigError(
      `Invalid configuration:\n${missing.map((r) => `  - CHAINS has no agent key for chain ${r.chain_id}, which carries tokens of active share classes: ${r.tokens}`).join('\n')}`,
    );
  }
}
