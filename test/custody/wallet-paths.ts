import { Order } from '../../src/modules/order/order.entity';
import { aTokenPair } from '../support/auth.factories';
import { randomWallet } from '../support/chain';
import { aChainMarket, aWhitelistedWallet, finalOrder, opsCall } from '../support/chain.factories';
import { aDistributor, aGrant, aHolding, anInvestor } from '../support/factories';
import type { TestGateway } from '../support/gateway';
import { alias } from '../support/ids';
import { aDealingDateNav, aOneStepOrder, aTransferHash } from '../support/one-step.factories';
import { aTwoStepOrder } from '../support/order.factories';
import { REQUEST_WALLET_RECOVERY } from '../support/approval.factories';

/*
 * Every path that can reach a mint, a burn, a freeze, a recovery or a forced transfer with a wallet
 * named, on each door, and what it must answer when the wallet is another holder's
 * (wallet-ownership.test.ts walks them).
 */
export const CHAIN = '31337';

export type World = Awaited<ReturnType<typeof aWorld>>;
export type Victim = 'a' | 'b';
type Answer = { status?: number; body: any };

export async function aWorld(gw: TestGateway) {
  const m = await aChainMarket(gw);
  const em = gw.em();
  const a1 = m.investor;
  const a2 = await anInvestor(em, m.distributor, { grants: [m.shareClass], walletChain: null });
  const b = await aDistributor(em, ['dist-b.test'], { name: 'Distributor B' });
  await aGrant(em, b, m.shareClass);
  const b1 = await anInvestor(em, b, { grants: [m.shareClass], walletChain: null });
  const wallets = { a1: randomWallet(), a2: randomWallet(), b1: randomWallet() };
  await aWhitelistedWallet(gw, a1.id, wallets.a1);
  await aWhitelistedWallet(gw, a2.id, wallets.a2);
  await aWhitelistedWallet(gw, b1.id, wallets.b1);
  // A2 and B1 hold 800 tokens each on chain, minted by settled subscriptions.
  for (const [distributor, investor] of [
    [m.distributor, a2],
    [b, b1],
  ] as const) {
    const order = await aOneStepOrder(gw, { distributor, investor, shareClass: m.shareClass }, { amount: '1000', stage: 'accepted', chainId: CHAIN });
    await aDealingDateNav(gw, order);
    const res = await opsCall(gw, `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id });
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    if ((await finalOrder(gw, order.id)).status !== 'settled') throw new Error('the set-up mint failed');
  }
  // A1 holds 100 tokens in the register: a redemption of A1's is placeable.
  await aHolding(em, a1, m.shareClass, '100');
  const tokenA = (await aTokenPair(gw, m.distributor)).accessToken;
  return { ...m, a1, a2, b, b1, wallets, tokenA };
}

/** An order of A1's, brought to `stage`, then made to name the victim's wallet as an order placed before the rule could (a row written on an older gateway). */
async function aLegacyOrder(gw: TestGateway, w: World, victim: string, opts: { type?: 'subscribe' | 'redeem'; stage: 'pending' | 'accepted' }) {
  const order = await aOneStepOrder(
    gw,
    { distributor: w.distributor, investor: w.a1, shareClass: w.shareClass },
    { type: opts.type, tokenCount: '10', amount: '100', stage: opts.stage, chainId: CHAIN },
  );
  await gw
    .em()
    .getConnection()
    .execute(`update "order" set wallet_address = ?, delivery_wallet = case when delivery_wallet is null then null else ? end where id = ?`, [
      victim,
      victim,
      order.id,
    ]);
  await aDealingDateNav(gw, order);
  return order;
}

const refusedInput = (shown: string) => ({ status: 400, body: { isError: true, errorMsg: `walletAddress is not a wallet of investor ${shown}`, data: {} } });
const graphqlRefusal = (code: string, message: string | RegExp) => ({
  body: expect.objectContaining({
    errors: [
      expect.objectContaining({
        message: typeof message === 'string' ? message : expect.stringMatching(message),
        extensions: expect.objectContaining({ code }),
      }),
    ],
  }),
});

/**
 * Every path that can move value, as data: its name, the door, and the attempt with the victim's
 * wallet (`wallet`), answering what the test compares with `expected`.
 */
export const PATHS: { path: string; door: string; attempt: (gw: TestGateway, w: World, wallet: string) => Promise<Answer>; expected: (w: World) => unknown }[] =
  [
    {
      path: 'one-step subscription placement',
      door: 'REST R',
      attempt: (gw, w, wallet) =>
        gw.api('POST', '/orders/subscribe', {
          host: 'dist-a.test',
          body: { distributorId: w.distributor.id, investorId: w.a1.id, shareClassId: w.shareClass.id, amount: 100, chainId: CHAIN, walletAddress: wallet },
        }),
      expected: (w) => refusedInput(w.a1.id),
    },
    {
      path: 'one-step redemption placement',
      door: 'REST R',
      attempt: (gw, w, wallet) =>
        gw.api('POST', '/orders/redeem', {
          host: 'dist-a.test',
          body: { distributorId: w.distributor.id, investorId: w.a1.id, shareClassId: w.shareClass.id, tokenCount: 10, chainId: CHAIN, walletAddress: wallet },
        }),
      expected: (w) => refusedInput(w.a1.id),
    },
    {
      path: 'one-step subscription placement',
      door: 'REST O',
      attempt: (gw, w, wallet) =>
        gw.api('POST', '/orders/subscribe', {
          headers: { authorization: `Bearer ${w.tokenA}` },
          body: {
            distributorId: alias(w.distributor.id, 'PT'),
            userId: alias(w.a1.id, 'US'),
            shareClassId: w.shareClass.id,
            amount: 100,
            chainId: CHAIN,
            walletAddress: wallet,
          },
        }),
      expected: (w) => refusedInput(alias(w.a1.id, 'US')),
    },
    {
      path: 'one-step redemption placement',
      door: 'REST O',
      attempt: (gw, w, wallet) =>
        gw.api('POST', '/orders/redeem', {
          headers: { authorization: `Bearer ${w.tokenA}` },
          body: {
            distributorId: alias(w.distributor.id, 'PT'),
            userId: alias(w.a1.id, 'US'),
            shareClassId: w.shareClass.id,
            tokenCount: 10,
            chainId: CHAIN,
            walletAddress: wallet,
          },
        }),
      expected: (w) => refusedInput(alias(w.a1.id, 'US')),
    },
    {
      path: 'one-step subscription placement',
      door: 'GraphQL (distributor)',
      attempt: (gw, w, wallet) =>
        gw.graphql(
          `mutation($i: OneStepSubscriptionInput!) { placeOneStepSubscription(input: $i) { id } }`,
          {
            i: {
              distributorId: alias(w.distributor.id, 'PT'),
              userId: alias(w.a1.id, 'US'),
              shareClassId: w.shareClass.id,
              amount: '100',
              chainId: CHAIN,
              walletAddress: wallet,
            },
          },
          { token: w.tokenA },
        ),
      expected: (w) => graphqlRefusal('BAD_USER_INPUT', new RegExp(`^walletAddress is not a wallet of investor (${w.a1.id}|${alias(w.a1.id, 'US')})$`)),
    },
    {
      path: 'one-step redemption placement',
      door: 'GraphQL (distributor)',
      attempt: (gw, w, wallet) =>
        gw.graphql(
          `mutation($i: OneStepRedemptionInput!) { placeOneStepRedemption(input: $i) { id } }`,
          {
            i: {
              distributorId: alias(w.distributor.id, 'PT'),
              userId: alias(w.a1.id, 'US'),
              shareClassId: w.shareClass.id,
              tokenCount: '10',
              chainId: CHAIN,
              walletAddress: wallet,
            },
          },
          { token: w.tokenA },
        ),
      expected: (w) => graphqlRefusal('BAD_USER_INPUT', new RegExp(`^walletAddress is not a wallet of investor (${w.a1.id}|${alias(w.a1.id, 'US')})$`)),
    },
    {
      path: 'acceptance (an order naming the wallet, placed before the rule)',
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) => {
        const order = await aLegacyOrder(gw, w, wallet, { type: 'redeem', stage: 'pending' });
        return gw.graphql(`mutation($id: ID!) { acceptOneStepOrder(orderId: $id) { status } }`, { id: order.id }, { token: await gw.opsToken() });
      },
      expected: (w) => graphqlRefusal('CONFLICT', `walletAddress is not a wallet of investor ${w.a1.id}`),
    },
    {
      path: 'one-step settlement on chain: mint (settleOneStepOrder, no hash)',
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) => {
        const order = await aLegacyOrder(gw, w, wallet, { type: 'subscribe', stage: 'accepted' });
        return gw.graphql(`mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id }, { token: await gw.opsToken() });
      },
      expected: (w) => graphqlRefusal('CONFLICT', `walletAddress is not a wallet of investor ${w.a1.id}`),
    },
    {
      path: 'one-step settlement on chain: burn (settleOneStepOrder, no hash)',
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) => {
        const order = await aLegacyOrder(gw, w, wallet, { type: 'redeem', stage: 'accepted' });
        return gw.graphql(`mutation($id: ID!) { settleOneStepOrder(orderId: $id) { status } }`, { id: order.id }, { token: await gw.opsToken() });
      },
      expected: (w) => graphqlRefusal('CONFLICT', `walletAddress is not a wallet of investor ${w.a1.id}`),
    },
    {
      path: 'one-step settlement by hash (verifyHash)',
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) => {
        const order = await aLegacyOrder(gw, w, wallet, { type: 'redeem', stage: 'accepted' });
        return gw.graphql(
          `mutation($id: ID!, $h: String) { settleOneStepOrder(orderId: $id, transferHash: $h) { status } }`,
          { id: order.id, h: aTransferHash() },
          { token: await gw.opsToken() },
        );
      },
      expected: (w) => graphqlRefusal('CONFLICT', `walletAddress is not a wallet of investor ${w.a1.id}`),
    },
    {
      path: "dealing date batch (batchBurn row): the row's order fails with the reason, nothing sent",
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) => {
        const order = await aLegacyOrder(gw, w, wallet, { type: 'redeem', stage: 'accepted' });
        const res = await gw.graphql(
          `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId reason } transactions { id } } }`,
          { sc: w.shareClass.id, d: order.dealingDate },
          { token: await gw.opsToken() },
        );
        const after = await gw.em().fork().findOneOrFail(Order, { id: order.id });
        const run = res.body.data?.settleDealingDate;
        // Orders of the same date left accepted by the paths above fail with it, for the same reason.
        return {
          body: {
            errors: res.body.errors,
            transactions: run?.transactions,
            row: run?.failed.find((f: { orderId: string }) => f.orderId === order.id),
            order: { status: after.status, failureReason: after.failureReason },
          },
        };
      },
      expected: (w) => ({
        body: {
          errors: undefined,
          transactions: [],
          row: { orderId: expect.any(String), reason: `walletAddress is not a wallet of investor ${w.a1.id}` },
          order: { status: 'failed', failureReason: `walletAddress is not a wallet of investor ${w.a1.id}` },
        },
      }),
    },
    {
      path: 'two-step supply-side settlement (recordSupplyOutcome settled)',
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) => {
        const placed = await aTwoStepOrder(gw, { distributor: w.distributor, investor: w.a1, shareClass: w.shareClass, hostA: 'dist-a.test' });
        await gw.em().getConnection().execute(`update "order" set status = 'accepted', delivery_wallet = ? where id = ?`, [wallet, placed.orderId]);
        return gw.graphql(
          `mutation($i: SupplyOutcomeInput!) { recordSupplyOutcome(input: $i) { status } }`,
          { i: { orderId: placed.orderId, outcome: 'settled', transferHash: aTransferHash() } },
          { token: await gw.opsToken() },
        );
      },
      expected: (w) => graphqlRefusal('CONFLICT', `walletAddress is not a wallet of investor ${w.a1.id}`),
    },
    {
      path: "adding a wallet (then whitelisted on chain) with another holder's address",
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) =>
        gw.graphql(
          `mutation($i: AddInvestorWalletInput!) { addInvestorWallet(input: $i) { status } }`,
          { i: { investorId: w.a1.id, chainId: '1', address: wallet, whitelisted: true } },
          { token: await gw.opsToken() },
        ),
      expected: () => graphqlRefusal('CONFLICT', 'address is a wallet of another holder'),
    },
    {
      path: "a wallet recovery (recoveryAddress + forcedTransfer) requested to another holder's address",
      door: 'GraphQL (ops)',
      attempt: async (gw, w, wallet) =>
        gw.graphql(
          REQUEST_WALLET_RECOVERY,
          { input: { investorId: w.a1.id, chainId: CHAIN, newAddress: wallet, reason: 'key lost' } },
          { token: await gw.opsToken() },
        ),
      expected: () => graphqlRefusal('CONFLICT', 'newAddress is a wallet of another holder'),
    },
  ];
