import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { LotFreeze, LotFreezeStatus } from '../../src/modules/settlement/lot-freeze.entity';
import { aDistributor, aGrant, aNav, anInvestor, aShareClass } from './factories';
import {
  createWalletClient,
  encodeFunctionData,
  http,
  type Abi,
  type Account,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type EncodeFunctionDataParameters,
  type Hex,
} from 'viem';
import type { ChainConfig } from '../../src/config/chains';
import { dateIn } from '../../src/modules/dealing/dealing-calendar';
import { startTestGateway, type TestGateway } from './gateway';
import { chainClients, eventually, randomWallet, testChains, workerChain, type ChainClients } from './chain';
import { checkerToken } from './approval.factories';

/** The lot's freeze once it is released on chain (a freeze that failed fails the test with its error). */
export function aReleasedLot(gw: TestGateway, lotId: string): Promise<LotFreeze> {
  return eventually('the lot released on chain', async () => {
    const f = await gw.em().findOneOrFail(LotFreeze, { lotId });
    if (f.status === LotFreezeStatus.failed) throw new Error(f.error);
    return f.status === LotFreezeStatus.released ? f : undefined;
  });
}

/** An ops GraphQL call of a test gateway; returns the body. */
export async function opsCall(gw: TestGateway, query: string, variables: Record<string, unknown> = {}) {
  const res = await gw.graphql(query, variables, { token: await gw.opsToken() });
  return res.body;
}

/**
 * A share class with a T-REX suite deployed by the gateway on chain 31337 (`deployToken`, its
 * primary token), a live NAV of 1.25, a distributor selling it and an investor without a wallet.
 * The class deals every day (aShareClass), so orders placed now are dealt today and priced at
 * today's NAV: the live one, struck a minute ago (at midnight when the day is younger), until a
 * test's own `aDealingDateNav`, struck later, prices instead.
 */
export async function aChainMarket(gw: TestGateway) {
  const em = gw.em();
  const shareClass = await aShareClass(em, { chainId: '1' });
  const distributor = await aDistributor(em, ['dist-a.test']);
  await aGrant(em, distributor, shareClass);
  const now = gw.clock.now();
  const live = new Date(Math.max(now.getTime() - 60_000, Date.parse(`${dateIn(now, 'UTC')}T00:00:00Z`)));
  await aNav(em, shareClass, '1.25', live);
  const investor = await anInvestor(em, distributor, { grants: [shareClass], walletChain: null });
  const deployed = await opsCall(
    gw,
    `mutation($sc: ID!) { deployToken(input: { shareClassId: $sc, chainId: "31337", name: "Chain Fund A", symbol: "CFA", decimals: 6, isPrimary: true }) { id chainId contractAddress identityRegistry decimals isPrimary } }`,
    { sc: shareClass.id },
  );
  if (deployed.errors) throw new Error(JSON.stringify(deployed.errors));
  return {
    em,
    shareClass,
    distributor,
    investor,
    token: deployed.data.deployToken as { id: string; contractAddress: string; identityRegistry: string; decimals: number },
  };
}

/**
 * Adds the investor's wallet on chain 31337 (`test-ops`) and whitelists it (a second principal,
 * `test-checker`: whitelisting on chain needs two, src/access/duties.ts): `pending` at once, then
 * `whitelisted` once registered on chain.
 */
export async function aWhitelistedWallet(gw: TestGateway, investorId: string, address: string): Promise<InvestorWallet> {
  const added = await opsCall(gw, `mutation($i: ID!, $a: String!) { addInvestorWallet(input: { investorId: $i, chainId: "31337", address: $a }) { status } }`, {
    i: investorId,
    a: address,
  });
  if (added.errors) throw new Error(JSON.stringify(added.errors));
  const whitelisting = await gw.graphql(
    `mutation($i: ID!) { whitelistInvestorWallet(input: { investorId: $i, chainId: "31337" }) { status } }`,
    { i: investorId },
    { token: await checkerToken(gw) },
  );
  if (whitelisting.body.errors) throw new Error(JSON.stringify(whitelisting.body.errors));
  if (whitelisting.body.data.whitelistInvestorWallet.status !== 'pending')
    throw new Error(`a wallet being whitelisted on chain reads pending, got ${whitelisting.body.data.whitelistInvestorWallet.status}`);
  return eventually('the wallet whitelisted on chain', async () => {
    const w = await gw.em().findOneOrFail(InvestorWallet, { investor: investorId, chainId: '31337', status: { $ne: WalletStatus.removed } });
    if (w.chainError) throw new Error(w.chainError);
    return w.status === WalletStatus.whitelisted ? w : undefined;
  });
}

/** The market's investor and three more of its distributor, each with a random wallet whitelisted on chain 31337. */
export async function fourWhitelistedInvestors(gw: TestGateway, m: Awaited<ReturnType<typeof aChainMarket>>) {
  const investors = [
    m.investor,
    ...(await Promise.all([1, 2, 3].map(() => anInvestor(gw.em(), m.distributor, { grants: [m.shareClass], walletChain: null })))),
  ];
  const wallets = new Map<string, Hex>();
  for (const inv of investors) {
    const address = randomWallet();
    await aWhitelistedWallet(gw, inv.id, address);
    wallets.set(inv.id, address);
  }
  return { investors, wallets };
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

/**
 * A test gateway on the worker's anvil for a describe block, with clients of that chain: started
 * before all, emptied before each test, closed after all. Read its fields inside the tests.
 */
export function onTheWorkerChain(over: Partial<ChainConfig> = {}) {
  const world = {} as { gw: TestGateway; chain: ChainClients; rpcUrl: string };
  beforeAll(async () => {
    world.gw = await startTestGateway({ chains: await testChains(over) });
    world.rpcUrl = (await workerChain()).rpcUrl;
    world.chain = chainClients(world.rpcUrl);
  });
  afterAll(() => world.gw.close());
  beforeEach(() => world.gw.reset());
  return world;
}

/**
 * The gateway's agent key used directly on chain, behind the gateway's back (as an issuer's
 * other tools would): sends a call and waits for its receipt, which must succeed.
 */
export async function behindTheGateway<const A extends Abi, F extends Writes<A>>(
  gw: TestGateway,
  rpcUrl: string,
  to: string,
  abi: A,
  functionName: F,
  args: WriteArgs<A, F>,
): Promise<Hex> {
  return sendAs(gw.gateway.services.chain!.writable('31337').account!, rpcUrl, to, abi, functionName, args);
}

/** A function of `A` that writes, and its arguments: a call the compiler checks against the contract's ABI. */
type Writes<A extends Abi> = ContractFunctionName<A, 'nonpayable' | 'payable'>;
type WriteArgs<A extends Abi, F extends Writes<A>> = ContractFunctionArgs<A, 'nonpayable' | 'payable', F>;

/** Sends a call from `account` and waits for its receipt, which must succeed; with a `tip` (priority fee, wei) it returns once sent, for a block mined later. */
export async function sendAs<const A extends Abi, F extends Writes<A>>(
  account: Account,
  rpcUrl: string,
  to: string,
  abi: A,
  functionName: F,
  args: WriteArgs<A, F>,
  tip?: bigint,
): Promise<Hex> {
  const { pub } = chainClients(rpcUrl);
  const wallet = createWalletClient({ account, chain: pub.chain, transport: http(rpcUrl) });
  const fees = tip === undefined ? {} : { maxPriorityFeePerGas: tip, maxFeePerGas: tip * 2n + (await pub.getGasPrice()) };
  // Checked at the signature: viem's conditional types cannot follow the generic A and F in here.
  const data = encodeFunctionData({ abi, functionName, args } as EncodeFunctionDataParameters);
  const hash = await wallet.sendTransaction({ to: to as Hex, data, ...fees });
  // Polled every 100 ms: anvil mines each second, and viem's default (4 s without a chain block time) would wait most of that out.
  if (tip === undefined && (await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 })).status !== 'success')
    throw new Error(`${functionName} reverted`);
  return hash;
}
