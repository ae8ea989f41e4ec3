import type { Hex } from 'viem';
import type { ChainHandle } from './chains';
import { chainUnavailable, decimalsMismatch, notAnErc3643Token, notRegistryAgent, notTokenAgent } from './chain.errors';
import { AGENT_ROLE_ABI, IDENTITY_REGISTRY_ABI, TOKEN_ABI } from './contracts';
import type { TokenOnChain } from './suite-deployment';

/**
 * An existing token the gateway is to settle with: it must answer the ERC-3643 interface, and
 * the agent key must be an agent of the token and of its identity registry.
 */
export async function verifyToken(chain: ChainHandle, address: string, decimals: number): Promise<TokenOnChain> {
  const token = { address: address as Hex, abi: TOKEN_ABI } as const;
  const isAgent = (at: Hex) =>
    chain.client.readContract({ address: at, abi: AGENT_ROLE_ABI, functionName: 'isAgent', args: [chain.account!.address] }).catch(() => false);
  let ir: Hex;
  let onChainDecimals: number;
  try {
    await chain.client.getChainId();
  } catch (err) {
    throw chainUnavailable(chain.config.chainId, (err as Error).message.split('\n')[0]);
  }
  try {
    ir = await chain.client.readContract({ ...token, functionName: 'identityRegistry' });
    await chain.client.readContract({ ...token, functionName: 'compliance' });
    onChainDecimals = await chain.client.readContract({ ...token, functionName: 'decimals' });
  } catch {
    throw notAnErc3643Token(address);
  }
  if (onChainDecimals !== decimals) throw decimalsMismatch(onChainDecimals, decimals);
  if (!(await isAgent(token.address))) throw notTokenAgent(address, chain.agent!);
  if (!(await isAgent(ir))) throw notRegistryAgent(ir, chain.agent!);
  const storage = await chain.client.readContract({ address: ir, abi: IDENTITY_REGISTRY_ABI, functionName: 'identityStorage' }).catch(() => ir);
  return { contractAddress: address, identityRegistry: ir.toLowerCase(), identityStorage: storage.toLowerCase(), decimals };
}
