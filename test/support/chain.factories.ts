import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { aDistributor, aGrant, aNav, anInvestor, aShareClass } from './factories';
import type { TestGateway } from './gateway';
import { eventually } from './chain';

/** An ops GraphQL call of a test gateway; returns the body. */
export async function opsCall(gw: TestGateway, query: string, variables: Record<string, unknown> = {}) {
  const res = await gw.graphql(query, variables, { token: await gw.opsToken() });
  return res.body as { data?: any; errors?: any[] };
}

/**
 * A share class with a T-REX suite deployed by the gateway on chain 31337 (`deployToken`, its
 * primary token), a live NAV of 1.25, a distributor selling it and an investor without a wallet.
 */
export async function aChainMarket(gw: TestGateway) {
  const em = gw.em();
  const shareClass = await aShareClass(em, { chainId: '1' });
  const distributor = await aDistributor(em, ['dist-a.test']);
  await aGrant(em, distributor, shareClass);
  await aNav(em, shareClass, '1.25', new Date(Date.now() - 60_000));
  const investor = await anInvestor(em, distributor, { grants: [shareClass], walletChain: null });
  const deployed = await opsCall(
    gw,
    `mutation($sc: ID!) { deployToken(input: { shareClassId: $sc, chainId: "31337", name: "Chain Fund A", symbol: "CFA", decimals: 6, isPrimary: true }) { id chainId contractAddress identityRegistry decimals isPrimary } }`,
    { sc: shareClass.id },
  );
  if (deployed.errors) throw new Error(JSON.stringify(deployed.errors));
  return { em, shareClass, distributor, investor, token: deployed.data.deployToken as { id: string; contractAddress: string; identityRegistry: string; decimals: number } };
}

/** Adds the investor's wallet on chain 31337 as whitelisted: `pending` at once, then `whitelisted` once registered on chain. */
export async function aWhitelistedWallet(gw: TestGateway, investorId: string, address: string): Promise<InvestorWallet> {
  const added = await opsCall(gw, `mutation($i: ID!, $a: String!) { addInvestorWallet(input: { investorId: $i, chainId: "31337", address: $a, whitelisted: true }) { status } }`, { i: investorId, a: address });
  if (added.errors) throw new Error(JSON.stringify(added.errors));
  if (added.data.addInvestorWallet.status !== 'pending') throw new Error(`a wallet being whitelisted on chain reads pending, got ${added.data.addInvestorWallet.status}`);
  return eventually('the wallet whitelisted on chain', async () => {
    const w = await gw.em().findOneOrFail(InvestorWallet, { investor: investorId, chainId: '31337', status: { $ne: WalletStatus.removed } });
    if (w.chainError) throw new Error(w.chainError);
    return w.status === WalletStatus.whitelisted ? w : undefined;
  });
}

/** Waits until the order is settled or failed. */
export const finalOrder = (gw: TestGateway, orderId: string, timeoutMs?: number) =>
  eventually(
    `order ${orderId} settled or failed`,
    async () => {
      const o = await gw.em().findOneOrFail(Order, { id: orderId });
      return ['settled', 'failed'].includes(o.status) ? o : undefined;
    },
    timeoutMs,
  );
