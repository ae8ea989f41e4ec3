import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema } from 'graphql';
import { parseUnits, type Hex } from 'viem';
import { DUTIES, dutyMatrixTable, mutationsEnding, sameParty, loneOpsPrincipal, type MutationDuty } from '../../src/access/duties';
import { OPS_RULES } from '../../src/modules/manifests';
import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { IDENTITY_REGISTRY_ABI } from '../../src/modules/chain/contracts';
import { DISTRIBUTION_MINT } from '../../src/modules/distribution/distribution-onchain';
import { Distribution, DistributionEntitlement } from '../../src/modules/distribution/distribution.entity';
import { InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Order } from '../../src/modules/order/order.entity';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { guardOpsRoles } from '../../src/transports/graphql/ops-guard';
import { chainClients, eventually, hex, randomWallet } from '../support/chain';
import { aChainMarket, behindTheGateway, finalOrder, onTheWorkerChain } from '../support/chain.factories';
import { aDeclaredReinvestment, DECLARER, holdersSinceOctober, PAY, RETRY } from '../support/income.factories';
import { aDealingDateNav } from '../support/one-step.factories';
import type { TestGateway } from '../support/gateway';

// The tables the gateway folds from the modules' manifests (src/modules/<m>/index.ts).
const OPS_MUTATION_DUTIES = OPS_RULES.mutationDuties as Record<string, MutationDuty>;
const OPS_MUTATION_ROLES = OPS_RULES.mutationRoles;

/*
 * Segregation of duties (issue 43, docs/approvals.md): a chain of steps by one ops principal never
 * ends in tokens reaching or leaving a wallet. The matrix (src/access/duties.ts) is walked as
 * data: every mutation that ends an action needing a second party has a scenario here, run alone
 * (refused, no intent written, nothing on chain) and with a second party (the intent sent).
 */
jest.setTimeout(600_000);

const CHAIN = '31337';
const ADD_WALLET = `mutation($i: AddInvestorWalletInput!) { addInvestorWallet(input: $i) { status } }`;
const WHITELIST = `mutation($i: ID!) { whitelistInvestorWallet(input: { investorId: $i, chainId: "31337" }) { status } }`;
const PLACE = `mutation($i: OneStepSubscriptionInput!) { placeOneStepSubscription(input: $i) { id } }`;
const ACCEPT = `mutation($id: ID!) { acceptOneStepOrder(orderId: $id) { id status } }`;
const SETTLE = `mutation($id: ID!) { settleOneStepOrder(orderId: $id) { id status } }`;
const SETTLE_DATE = `mutation($sc: ID!, $d: String!) { settleDealingDate(shareClassId: $sc, dealingDate: $d) { failed { orderId reason } transactions { id } } }`;

const ORDER_DUTY = (who: string, orderId: string) =>
  `segregation of duties: minting or burning a one-step order's tokens needs a second party, the distributor's own authenticated placement (surface R or O) or a second ops principal accepting or settling the order; ${who} took every step alone (order ${orderId})`;
const WALLET_DUTY = (who: string) =>
  `segregation of duties: registering a wallet's identity on chain (whitelisting) needs a second party, a second ops principal whitelisting the wallet another added (\`whitelistInvestorWallet\`); ${who} took every step alone`;
const INCOME_DUTY = (who: string) =>
  `segregation of duties: minting a distribution reinvested as new tokens needs a second party, a second ops principal paying what another declared; ${who} took every step alone`;

type Market = Awaited<ReturnType<typeof aChainMarket>>;
type Body = { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };

/** A GraphQL call with an ops token; the body. */
const as = async (gw: TestGateway, token: string, query: string, variables: Record<string, unknown> = {}): Promise<Body> =>
  (await gw.graphql(query, variables, { token })).body;

const intents = (gw: TestGateway, purpose: string | { $like: string }) => gw.em().count(ChainTransaction, { purpose });

function expectRefused(body: Body, message: string | RegExp): void {
  expect(body.errors?.[0]).toMatchObject({ message, extensions: { code: 'FORBIDDEN' } });
}

/** Two operators: the maker and a second principal. */
async function operators(gw: TestGateway) {
  return { op1: await gw.opsTokenAs('op1', ['operator']), op2: await gw.opsTokenAs('op2', ['operator']) };
}

/** The investor's wallet whitelisted on chain: added by `adder`, whitelisted by `whitelister`. */
async function whitelisted(gw: TestGateway, m: Market, adder: string, whitelister: string, address = randomWallet()): Promise<Hex> {
  expect((await as(gw, adder, ADD_WALLET, { i: { investorId: m.investor.id, chainId: CHAIN, address } })).errors).toBeUndefined();
  expect((await as(gw, whitelister, WHITELIST, { i: m.investor.id })).errors).toBeUndefined();
  await eventually('the wallet whitelisted on chain', async () => {
    const w = await gw.em().findOneOrFail(InvestorWallet, { investor: m.investor.id, chainId: CHAIN, status: { $ne: WalletStatus.removed } });
    if (w.chainError) throw new Error(w.chainError);
    return w.status === WalletStatus.whitelisted;
  });
  return address;
}

/** An accepted subscription placed and accepted by ops (`token`), its dealing date's NAV published. */
async function anOpsOrder(gw: TestGateway, m: Market, token: string, wallet: string): Promise<string> {
  const placed = await as(gw, token, PLACE, {
    i: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: '1000', chainId: CHAIN, walletAddress: wallet },
  });
  expect(placed.errors).toBeUndefined();
  const id = placed.data.placeOneStepSubscription.id as string;
  expect((await as(gw, token, ACCEPT, { id })).errors).toBeUndefined();
  await aDealingDateNav(gw, { id });
  return id;
}

/** The distributor's reinvestment with one holder of 1,000 tokens at `wallet`, declared by `test-declarer`. */
async function aReinvestment(gw: TestGateway, rpcUrl: string, m: Market, wallet: Hex): Promise<string> {
  await holdersSinceOctober(gw, rpcUrl, m, new Map([[m.investor.id, wallet]]), '1000');
  return aDeclaredReinvestment(gw, m, '0.02');
}

const paidOrFailed = (gw: TestGateway, id: string) =>
  eventually('the distribution final', async () => (await gw.em().findOneOrFail(Distribution, { id })).status === 'paid', 120_000);

interface Scenario {
  /** One ops principal takes every step: refused, with no intent written and nothing on chain. */
  alone(gw: TestGateway, w: { m: Market; rpcUrl: string; op1: string; op2: string }): Promise<void>;
  /** A second principal takes a step: the intent is written and the chain moves. */
  twoParties(gw: TestGateway, w: { m: Market; rpcUrl: string; op1: string; op2: string }): Promise<void>;
}

/** Every mutation that ends an action needing a second party (src/access/duties.ts), as a scenario. */
const SCENARIOS: Record<string, Scenario> = {
  addInvestorWallet: {
    async alone(gw, { m, op1 }) {
      const res = await as(gw, op1, ADD_WALLET, { i: { investorId: m.investor.id, chainId: CHAIN, address: randomWallet(), whitelisted: true } });
      expectRefused(res, WALLET_DUTY('ops:op1'));
      expect(await gw.em().count(InvestorWallet, { investor: m.investor.id })).toBe(0);
      expect(await intents(gw, { $like: 'wallet.%' })).toBe(0);
    },
    async twoParties(gw, { m, op1, op2, rpcUrl }) {
      const address = await whitelisted(gw, m, op1, op2);
      expect(await chainClients(rpcUrl).read<boolean>(m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'isVerified', [address])).toBe(true);
    },
  },
  whitelistInvestorWallet: {
    async alone(gw, { m, op1 }) {
      expect((await as(gw, op1, ADD_WALLET, { i: { investorId: m.investor.id, chainId: CHAIN, address: randomWallet() } })).errors).toBeUndefined();
      expectRefused(await as(gw, op1, WHITELIST, { i: m.investor.id }), WALLET_DUTY('ops:op1'));
      expect(await intents(gw, { $like: 'wallet.%' })).toBe(0);
      expect((await gw.em().findOneOrFail(InvestorWallet, { investor: m.investor.id })).status).toBe(WalletStatus.pending);
    },
    async twoParties(gw, { m, op1, op2 }) {
      await whitelisted(gw, m, op1, op2);
      expect(await intents(gw, 'wallet.register')).toBeGreaterThan(0);
    },
  },
  settleOneStepOrder: {
    async alone(gw, { m, op1, op2, rpcUrl }) {
      const wallet = await whitelisted(gw, m, op2, op1);
      const id = await anOpsOrder(gw, m, op1, wallet);
      expectRefused(await as(gw, op1, SETTLE, { id }), ORDER_DUTY('ops:op1', id));
      expect(await intents(gw, { $like: 'settlement.%' })).toBe(0);
      expect((await gw.em().findOneOrFail(Order, { id })).status).toBe('accepted');
      await expectBalance(rpcUrl, m, wallet, 0n);
    },
    async twoParties(gw, { m, op1, op2, rpcUrl }) {
      const wallet = await whitelisted(gw, m, op2, op1);
      const id = await anOpsOrder(gw, m, op1, wallet);
      expect((await as(gw, op2, SETTLE, { id })).errors).toBeUndefined();
      expect((await finalOrder(gw, id)).status).toBe('settled');
      await expectBalance(rpcUrl, m, wallet, 800n * 10n ** 6n);
    },
  },
  settleDealingDate: {
    async alone(gw, { m, op1, op2, rpcUrl }) {
      const wallet = await whitelisted(gw, m, op2, op1);
      const id = await anOpsOrder(gw, m, op1, wallet);
      const order = await gw.em().findOneOrFail(Order, { id });
      const run = await as(gw, op1, SETTLE_DATE, { sc: m.shareClass.id, d: order.dealingDate });
      expect(run.errors).toBeUndefined();
      expect(run.data.settleDealingDate).toEqual({ failed: [{ orderId: id, reason: ORDER_DUTY('ops:op1', id) }], transactions: [] });
      expect(await intents(gw, { $like: 'settlement.%' })).toBe(0);
      expect(await gw.em().findOneOrFail(Order, { id })).toMatchObject({ status: 'failed', failureReason: ORDER_DUTY('ops:op1', id) });
      await expectBalance(rpcUrl, m, wallet, 0n);
    },
    async twoParties(gw, { m, op1, op2, rpcUrl }) {
      const wallet = await whitelisted(gw, m, op2, op1);
      const id = await anOpsOrder(gw, m, op1, wallet);
      const order = await gw.em().findOneOrFail(Order, { id });
      const run = await as(gw, op2, SETTLE_DATE, { sc: m.shareClass.id, d: order.dealingDate });
      expect(run.data.settleDealingDate).toMatchObject({ failed: [], transactions: [expect.anything()] });
      expect((await finalOrder(gw, id)).status).toBe('settled');
      await expectBalance(rpcUrl, m, wallet, 800n * 10n ** 6n);
    },
  },
  payDistribution: {
    async alone(gw, { m, op1, op2, rpcUrl }) {
      const wallet = await whitelisted(gw, m, op1, op2);
      const id = await aReinvestment(gw, rpcUrl, m, wallet);
      const declarer = await gw.opsTokenAs(DECLARER, ['operator']);
      expectRefused(await as(gw, declarer, PAY, { id }), INCOME_DUTY(`ops:${DECLARER}`));
      expect(await intents(gw, DISTRIBUTION_MINT)).toBe(0);
      expect((await gw.em().findOneOrFail(Distribution, { id })).status).toBe('declared');
      await expectBalance(rpcUrl, m, wallet, 1000n * 10n ** 6n);
    },
    async twoParties(gw, { m, op1, op2, rpcUrl }) {
      const wallet = await whitelisted(gw, m, op1, op2);
      const id = await aReinvestment(gw, rpcUrl, m, wallet);
      expect((await as(gw, op1, PAY, { id })).data.payDistribution.status).toBe('paying');
      await paidOrFailed(gw, id);
      // 20 on 1,000 tokens at a NAV of 2: 10 new tokens
      await expectBalance(rpcUrl, m, wallet, 1010n * 10n ** 6n);
    },
  },
  retryDistributionPayments: {
    async alone(gw, w) {
      const { id, wallet, declarer } = await aFailedRow(gw, w);
      expectRefused(await as(gw, declarer, RETRY, { id }), INCOME_DUTY(`ops:${DECLARER}`));
      expect(await intents(gw, DISTRIBUTION_MINT)).toBe(1);
      expect((await gw.em().findOneOrFail(DistributionEntitlement, { distributionId: id })).status).toBe('failed');
      await expectBalance(w.rpcUrl, w.m, wallet, 1000n * 10n ** 6n);
    },
    async twoParties(gw, w) {
      const { id, wallet } = await aFailedRow(gw, w);
      expect((await as(gw, w.op2, RETRY, { id })).errors).toBeUndefined();
      expect(await intents(gw, DISTRIBUTION_MINT)).toBe(2);
      await paidOrFailed(gw, id);
      await expectBalance(w.rpcUrl, w.m, wallet, 1010n * 10n ** 6n);
    },
  },
};

/** A reinvestment paid by `op2` whose one row failed (its identity deleted behind the gateway), the identity registered again. */
async function aFailedRow(gw: TestGateway, { m, op1, op2, rpcUrl }: { m: Market; rpcUrl: string; op1: string; op2: string }) {
  const wallet = await whitelisted(gw, m, op1, op2);
  const row = await gw.em().findOneOrFail(InvestorWallet, { investor: m.investor.id, chainId: CHAIN });
  await holdersSinceOctober(gw, rpcUrl, m, new Map([[m.investor.id, wallet]]), '1000');
  await behindTheGateway(gw, rpcUrl, m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'deleteIdentity', [wallet]);
  const id = await aDeclaredReinvestment(gw, m, '0.02');
  expect((await as(gw, op2, PAY, { id })).errors).toBeUndefined();
  await paidOrFailed(gw, id);
  expect((await gw.em().findOneOrFail(DistributionEntitlement, { distributionId: id })).status).toBe('failed');
  await behindTheGateway(gw, rpcUrl, m.token.identityRegistry, IDENTITY_REGISTRY_ABI, 'registerIdentity', [wallet, hex(row.onchainIdentity), 0]);
  return { id, wallet, declarer: await gw.opsTokenAs(DECLARER, ['operator']) };
}

async function expectBalance(rpcUrl: string, m: Market, wallet: string, units: bigint): Promise<void> {
  expect(await chainClients(rpcUrl).balanceOf(m.token.contractAddress, wallet)).toBe(units);
}

describe('The duty matrix', () => {
  it('classifies every mutation of the schema, and names only mutations', () => {
    const mutations = Object.keys(gatewaySchema().getMutationType()!.getFields()).sort();
    expect(Object.keys(OPS_MUTATION_DUTIES).sort()).toEqual(mutations);
    expect(Object.keys(OPS_MUTATION_ROLES).sort()).toEqual(mutations);
  });

  it('a schema with a mutation that has a role but no duty line does not build', () => {
    const fields = Object.keys(OPS_MUTATION_ROLES)
      .map((name) => `${name}: Int`)
      .join(' ');
    const schema = buildSchema(`type Query { auditLog: Int } type Mutation { ${fields} }`);
    delete (OPS_MUTATION_DUTIES as Record<string, unknown>).publishNav;
    try {
      expect(() => guardOpsRoles(schema)).toThrow('ops role and duty rules are incomplete:\n- mutation publishNav has no duty line (src/modules/nav/index.ts)');
    } finally {
      OPS_MUTATION_DUTIES.publishNav = { ends: [], steps: [] };
    }
  });

  it('every action with a second party names the intents it ends in, and is ended by some mutation', () => {
    for (const [name, duty] of Object.entries(DUTIES)) {
      const enders = Object.values(OPS_MUTATION_DUTIES).filter((m) => (m.ends as readonly string[]).includes(name));
      expect([name, enders.length > 0]).toEqual([name, true]);
      if (duty.rule === 'second party') expect([name, duty.intents.length > 0]).toEqual([name, true]);
    }
  });

  it('docs/approvals.md shows the matrix as it is', () => {
    const doc = readFileSync(join(__dirname, '../../docs/approvals.md'), 'utf8');
    expect(doc).toContain(dutyMatrixTable(OPS_RULES));
  });

  it('parties: a distributor is one party on both surfaces, ops names are case-folded, a job is nobody', () => {
    expect(sameParty('partner:PT000001', 'distributor:DT000001')).toBe(true);
    expect(sameParty('ops:OP1', 'ops:op1')).toBe(true);
    expect(sameParty('ops:op1', 'ops:op2')).toBe(false);
    expect(sameParty('seed', 'seed')).toBe(false);
    expect(loneOpsPrincipal(['ops:op1', 'ops:OP1', 'factory', 'chain', null])).toBe('ops:op1');
    expect(loneOpsPrincipal(['distributor:DT000001', 'ops:op1'])).toBeNull();
    expect(loneOpsPrincipal(['ops:op1', 'ops:op2'])).toBeNull();
    expect(loneOpsPrincipal(['seed', 'seed'])).toBeNull();
  });
});

describe('Segregation of duties on every path to a chain intent', () => {
  const world = onTheWorkerChain();
  const setup = async () => {
    const { gw, rpcUrl } = world;
    return { m: await aChainMarket(gw), rpcUrl, ...(await operators(gw)) };
  };

  it('the scenarios are exactly the mutations the matrix says end an action needing a second party', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(mutationsEnding(OPS_MUTATION_DUTIES, 'second party').sort());
  });

  describe.each(mutationsEnding(OPS_MUTATION_DUTIES, 'second party').map((m) => [m]))('%s', (mutation: string) => {
    it('one principal alone: refused, no intent written, nothing on chain', async () => {
      await SCENARIOS[mutation].alone(world.gw, await setup());
    });
    it('with a second party: the intent is sent', async () => {
      await SCENARIOS[mutation].twoParties(world.gw, await setup());
    });
  });
});

describe('Issue 43: one operator mints to an address of its choosing', () => {
  const world = onTheWorkerChain();

  it('one operator token alone: every step that would move a token is refused, and balanceOf stays 0 after each step; a second principal settling mints', async () => {
    const { gw, rpcUrl } = world;
    const m = await aChainMarket(gw);
    const { op1, op2 } = await operators(gw);
    const address = randomWallet();
    const balance = () => chainClients(rpcUrl).balanceOf(m.token.contractAddress, address);

    // registerInvestor under the distributor, grantInvestorShareClass
    const reg = await as(gw, op1, `mutation($d: String!) { registerInvestor(input: { distributorId: $d, externalInvestorId: "insider" }) { id } }`, {
      d: m.distributor.id,
    });
    const investorId = reg.data.registerInvestor.id as string;
    expect(await balance()).toBe(0n);
    expect(
      (
        await as(gw, op1, `mutation($i: InvestorShareClassInput!) { grantInvestorShareClass(input: $i) { id } }`, {
          i: { investorId, shareClassId: m.shareClass.id },
        })
      ).errors,
    ).toBeUndefined();
    expect(await balance()).toBe(0n);

    // addInvestorWallet(…, whitelisted: true): refused, nothing written
    const add = await as(gw, op1, ADD_WALLET, { i: { investorId, chainId: CHAIN, address, whitelisted: true } });
    expectRefused(add, WALLET_DUTY('ops:op1'));
    expect(await gw.em().count(InvestorWallet, { investor: investorId })).toBe(0);
    expect(await balance()).toBe(0n);

    // the same operator adds it, then whitelists it: refused
    expect((await as(gw, op1, ADD_WALLET, { i: { investorId, chainId: CHAIN, address } })).errors).toBeUndefined();
    expectRefused(await as(gw, op1, WHITELIST, { i: investorId }), WALLET_DUTY('ops:op1'));
    expect(await intents(gw, { $like: 'wallet.%' })).toBe(0);
    expect(await balance()).toBe(0n);

    // a second principal whitelists the wallet (its identity checked): still, the order's steps are one operator's
    expect((await as(gw, op2, WHITELIST, { i: investorId })).errors).toBeUndefined();
    await eventually(
      'the wallet whitelisted on chain',
      async () => (await gw.em().findOneOrFail(InvestorWallet, { investor: investorId })).status === WalletStatus.whitelisted,
    );
    expect(await balance()).toBe(0n);
    const placed = await as(gw, op1, PLACE, {
      i: { distributorId: m.distributor.id, investorId, shareClassId: m.shareClass.id, amount: '1000000', chainId: CHAIN, walletAddress: address },
    });
    expect(placed.errors).toBeUndefined();
    const id = placed.data.placeOneStepSubscription.id as string;
    expect(await balance()).toBe(0n);
    expect((await as(gw, op1, ACCEPT, { id })).errors).toBeUndefined();
    await aDealingDateNav(gw, { id });
    expect(await balance()).toBe(0n);
    expectRefused(await as(gw, op1, SETTLE, { id }), ORDER_DUTY('ops:op1', id));
    expect(await intents(gw, { $like: 'settlement.%' })).toBe(0);
    expect(await balance()).toBe(0n);

    // the same chain with a second principal settling: minted
    expect((await as(gw, op2, SETTLE, { id })).errors).toBeUndefined();
    const done = await finalOrder(gw, id);
    expect(done.status).toBe('settled');
    expect(await balance()).toBe(parseUnits(done.settlementTokens!, 6));
    expect(await balance()).toBeGreaterThan(0n);
  });

  it("the distributor's own REST placement is a party: one operator accepts and settles it, and the tokens are minted", async () => {
    const { gw, rpcUrl } = world;
    const m = await aChainMarket(gw);
    const { op1, op2 } = await operators(gw);
    const address = await whitelisted(gw, m, op2, op1);
    const placed = await gw.api('POST', '/orders/subscribe', {
      host: 'dist-a.test',
      body: { distributorId: m.distributor.id, investorId: m.investor.id, shareClassId: m.shareClass.id, amount: 1000, chainId: CHAIN, walletAddress: address },
    });
    expect(placed.status).toBe(200);
    const id = placed.body.data.orderId as string;
    expect((await as(gw, op1, ACCEPT, { id })).errors).toBeUndefined();
    await aDealingDateNav(gw, { id });
    expect((await as(gw, op1, SETTLE, { id })).errors).toBeUndefined();
    expect((await finalOrder(gw, id)).status).toBe('settled');
    await expectBalance(rpcUrl, m, address, 800n * 10n ** 6n);
  });
});
