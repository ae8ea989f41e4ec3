import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { ModuleContext } from '../../access/module-services';
import type { ChainHandle } from './chains';

/**
 * Names of the chains operators meet most, so a select reads "Sepolia (11155111)" rather than a
 * bare number. Only a label: every rule goes by the chain id.
 */
const KNOWN_NAMES: Record<string, string> = {
  '1': 'Ethereum',
  '10': 'Optimism',
  '137': 'Polygon',
  '8453': 'Base',
  '42161': 'Arbitrum One',
  '43114': 'Avalanche C-Chain',
  '11155111': 'Sepolia',
  '84532': 'Base Sepolia',
  '31337': 'Anvil',
};

/**
 * What the console may know of a configured chain. Deliberately not its RPC URLs (they often carry
 * a provider's key in the path) nor anything of its agent key but whether there is one.
 */
@ObjectType('ChainInfo', { description: 'Ops: a chain the gateway is configured for.' })
export class ChainInfo {
  @Field(() => String, { description: 'Numeric EVM chain id, as tokens and wallets name it' }) chainId: string;
  @Field(() => String, { description: 'A readable name (the embedded chain says so); only a label' }) name: string;
  @Field(() => Boolean, {
    description: 'Whether the gateway has an agent key here: it deploys tokens, whitelists wallets and settles on this chain; otherwise it only reads',
  })
  writable: boolean;
  @Field(() => Int, { description: 'Blocks on top of a transaction before its outcome is declared (1 = the block itself)' }) confirmations: number;
}

const info = (h: ChainHandle): ChainInfo => ({
  chainId: h.id,
  name: h.config.embedded ? 'Embedded anvil' : (KNOWN_NAMES[h.id] ?? `Chain ${h.id}`),
  writable: !!h.account,
  confirmations: h.config.confirmations,
});

@Resolver()
export class ChainInfoResolver {
  @Query(() => [ChainInfo], { description: 'Ops: the configured chains, by chain id; empty when none is.' })
  chains(@Ctx() ctx: ModuleContext<'chain'>): ChainInfo[] {
    // A list of an ops type would answer others an empty list; refuse them as every ops field does.
    ctx.access.requireOps();
    const all = ctx.services.chain?.chains.all() ?? [];
    return all.map(info).sort((a, b) => Number(a.chainId) - Number(b.chainId));
  }
}
