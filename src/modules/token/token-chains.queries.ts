import type { EntityManager } from '@mikro-orm/postgresql';
import { Token } from './token.entity';

/** A chain and the tokens of active share classes it carries (`TK… (SC…)`, a list in words). */
export interface ChainCarrying {
  chainId: string;
  tokens: string;
}

/**
 * The chains that carry a token of an active share class: what the gateway must be able to write
 * to before it starts (src/modules/chain/chain-readiness.ts is handed this list by src/main.ts).
 */
export async function chainsCarryingActiveTokens(em: EntityManager): Promise<ChainCarrying[]> {
  return em
    .execute<{ chain_id: string; tokens: string }[]>(
      `select t.chain_id, string_agg(t.id || ' (' || t.share_class_id || ')', ', ' order by t.id) as tokens
     from token t join share_class sc on sc.id = t.share_class_id where sc.status = 'active' group by t.chain_id order by t.chain_id`,
    )
    .then((rows) => rows.map((r) => ({ chainId: r.chain_id, tokens: r.tokens })));
}

/**
 * The tokens of one chain, contract addresses lower-cased: what the chain follower reads the
 * transfers of (src/modules/chain/follower-ports.ts, `TokensToFollow`, handed this by src/services.ts).
 */
export async function tokensToFollow(em: EntityManager, chainId: string): Promise<{ address: string; shareClassId: string; decimals: number }[]> {
  const rows = await em.find(Token, { chainId });
  return rows.map((t) => ({ address: t.contractAddress.toLowerCase(), shareClassId: t.shareClass.id, decimals: t.decimals }));
}
