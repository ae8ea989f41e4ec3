import { Access } from '../../src/access/access';
import { introspectionFromSchema } from 'graphql';
import { seedDataset, HOT_DISTRIBUTOR, HOT_HOST, HOT_INVESTOR, HOT_SHARE_CLASS, HOUR_MS, LIST_STATUS, OPS_TOKEN } from '../../bench/dataset';
import { buildOrdersPage } from '../../bench/graphql-page';
import { SURFACE_R } from '../../rest-compat/surface-r';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * The hot queries keep using indexes as the book grows: each is captured as the ORM generates it
 * (knex's `query` event) while the real code path runs, then EXPLAINed with sequential scans and
 * sorts priced out, so a plan without a usable index shows a Seq Scan or a Sort and the test fails.
 * The data is small (the planner is told not to scan); bench/run.ts --scale measures the timing.
 */

interface Captured {
  sql: string;
  bindings: unknown[];
}

type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: PlanNode[] };

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

const hasListRoute = SURFACE_R.some((r) => r.method === 'GET' && r.path === '/orders/subscriptions/distributor/:distributorId');
const pageOperation = buildOrdersPage(introspectionFromSchema(gatewaySchema()), { distributorId: HOT_DISTRIBUTOR, size: 10 });

describe('Hot queries use indexes (EXPLAIN of the SQL the code generates)', () => {
  let gw: TestGateway;
  let captured: Captured[] = [];
  const knex = () => gw.db.orm.em.getConnection().getKnex();

  beforeAll(async () => {
    gw = await startTestGateway();
    const k = gw.db.orm.em.getConnection().getKnex();
    // knex binds `?` in order; the seed's `$n` may repeat.
    await seedDataset(
      async (sql, params = []) => {
        const bindings: unknown[] = [];
        const text = sql.replace(/\$(\d+)/g, (_m, n: string) => (bindings.push(params[Number(n) - 1]), '?'));
        await k.raw(text, bindings as never);
      },
      { orders: 400, navs: 300 },
    );
    await k.raw('analyze');
    k.on('query', (q: { sql: string; bindings?: unknown[] }) => captured.push({ sql: q.sql, bindings: q.bindings ?? [] }));
  });
  afterAll(() => gw.close());
  beforeEach(() => {
    captured = [];
  });

  /** The captured statement reading `table`. */
  function statementOn(table: string): Captured {
    const found = captured.filter((c) => new RegExp(`from "${table}"`, 'i').test(c.sql) && /^\s*select/i.test(c.sql));
    if (!found.length) throw new Error(`no select on "${table}" among:\n${captured.map((c) => c.sql).join('\n')}`);
    return found[found.length - 1];
  }

  async function explain(statement: Captured): Promise<PlanNode[]> {
    return knex().transaction(async (trx) => {
      await trx.raw('set local enable_seqscan = off');
      await trx.raw('set local enable_sort = off');
      // Statements of the driver's own (`rawRows`) arrive with `$n` placeholders; knex binds `?`.
      const bindings: unknown[] = [];
      const sql = statement.sql.replace(/\$(\d+)/g, (_m, n: string) => (bindings.push(statement.bindings[Number(n) - 1]), '?'));
      const res = await trx.raw(`explain (format json) ${sql}`, (bindings.length ? bindings : statement.bindings) as never);
      const plan = (res.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
      return nodes(plan);
    });
  }

  function expectIndexedAndUnsorted(plan: PlanNode[], table: string, index?: string) {
    const onTable = plan.filter((n) => n['Relation Name'] === table);
    expect(onTable.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(onTable.some((n) => /Index/.test(n['Node Type']))).toBe(true);
    expect(plan.map((n) => n['Node Type'])).not.toContain('Sort');
    if (index) expect(onTable.map((n) => n['Index Name'])).toContain(index);
  }

  it('the live NAV reads the newest entry through the (shareClass, publishedAt) index', async () => {
    const res = await gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${HOT_SHARE_CLASS}`, { host: HOT_HOST });
    expect(res.status).toBe(200);
    expectIndexedAndUnsorted(await explain(statementOn('nav')), 'nav', 'nav_share_class_id_published_at_index');
  });

  it('the NAV history without bounds reads the last 100 entries through the same index', async () => {
    const res = await gw.api('GET', `/funds/shareclass/nav/history?shareClassId=${HOT_SHARE_CLASS}`, { host: HOT_HOST });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expectIndexedAndUnsorted(await explain(statementOn('nav')), 'nav', 'nav_share_class_id_published_at_index');
  });

  it('the NAV history of a one-day range reads an index range', async () => {
    const last = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const res = await gw.api(
      'GET',
      `/funds/shareclass/nav/history?shareClassId=${HOT_SHARE_CLASS}&startDate=${last - 2 * 24 * HOUR_MS}&endDate=${last - 24 * HOUR_MS}`,
      { host: HOT_HOST },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(24);
    expectIndexedAndUnsorted(await explain(statementOn('nav')), 'nav', 'nav_share_class_id_published_at_index');
  });

  it('an order by id is read through its primary key', async () => {
    const em = gw.em();
    await gw.gateway.services.order.visibleOrder(
      { em, access: new Access({ kind: 'distributor', distributorId: HOT_DISTRIBUTOR, surface: 'R' }, gw.gateway.services.distributor) },
      'OR000001',
    );
    expectIndexedAndUnsorted(await explain(statementOn('order')), 'order', 'order_pkey');
  });

  it.each([
    ['two-step', { amountSubscription: 1000 }],
    ['one-step', { amount: 1000 }],
  ])('a %s placement reads all its parties in one statement, every table by an index', async (_flow, amount) => {
    const res = await gw.api('POST', '/orders/subscribe', {
      host: HOT_HOST,
      body: { distributorId: HOT_DISTRIBUTOR, investorId: HOT_INVESTOR, shareClassId: HOT_SHARE_CLASS, ...amount },
    });
    expect(res.status).toBe(200);
    const parties = captured.filter((c) => /join share_class_grant/.test(c.sql));
    expect(parties).toHaveLength(1);
    const plan = await explain(parties[0]);
    expect(plan.filter((n) => n['Relation Name']).map((n) => [n['Relation Name'], n['Node Type']])).not.toContainEqual(expect.arrayContaining(['Seq Scan']));
    expect(new Set(plan.map((n) => n['Relation Name']).filter(Boolean))).toEqual(
      new Set(['distributor', 'investor', 'share_class_grant', 'investor_grant', 'investor_wallet', 'distributor_wallet']),
    );
  });

  it("a redemption sums the holding's open redemptions through their own index, not every order of the investor", async () => {
    const res = await gw.api('POST', '/orders/redeem', {
      host: HOT_HOST,
      body: { distributorId: HOT_DISTRIBUTOR, investorId: HOT_INVESTOR, shareClassId: HOT_SHARE_CLASS, tokenCount: 1 },
    });
    expect(res.status).toBe(200);
    const sums = captured.filter((c) => /sum\(token_count\)/.test(c.sql));
    expect(sums).toHaveLength(1);
    expectIndexedAndUnsorted(await explain(sums[0]), 'order', 'order_open_redemption_index');
  });

  it(`a distributor's orders in one status, newest first, are an index range (distributor, status, createdAt)`, async () => {
    expect(hasListRoute).toBe(true);
    const res = await gw.api('GET', `/orders/subscriptions/distributor/${HOT_DISTRIBUTOR}?status=${LIST_STATUS}`, { host: HOT_HOST });
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBeGreaterThan(0);
    expectIndexedAndUnsorted(await explain(statementOn('order')), 'order', 'order_distributor_id_status_created_at_id_index');
  });

  it.each([
    [
      'the distributor (surface R)',
      () => gw.api('GET', `/orders/subscriptions/investor/${HOT_INVESTOR}?status=${LIST_STATUS}`, { host: HOT_HOST }).then((r) => r.body.data.items),
    ],
    [
      'ops (GraphQL)',
      () =>
        gw
          .graphql(`{ orders(filter: { investorId: "${HOT_INVESTOR}", status: "${LIST_STATUS}" }) { items { orderId } } }`, {}, { token: OPS_TOKEN })
          .then((r) => r.body.data.orders.items),
    ],
  ])(`an investor's orders in one status, newest first, are an index range (investor, status, createdAt) for %s`, async (_who, list) => {
    expect((await list()).length).toBeGreaterThan(0);
    expectIndexedAndUnsorted(await explain(statementOn('order')), 'order', 'order_investor_id_status_created_at_id_index');
  });

  it('a GraphQL page of orders with investor and share class costs as many SQL statements for a page of 10 as for a page of 1,000', async () => {
    // The page is built from the schema: a schema that lost its fields says why here, not by skipping.
    if (typeof pageOperation === 'string') throw new Error(pageOperation);
    const count = async (size: number) => {
      const page = buildOrdersPage(introspectionFromSchema(gatewaySchema()), { distributorId: HOT_DISTRIBUTOR, size });
      if (typeof page === 'string') throw new Error(page);
      captured = [];
      const res = await gw.graphql(page.query, page.variables, { token: OPS_TOKEN });
      expect(res.body.errors).toBeUndefined();
      return captured.length;
    };
    // The hot distributor's orders span 20 investors and 3 share classes: a page of 1,000 holds them all.
    expect(await count(1_000)).toBe(await count(10));
  });
});
