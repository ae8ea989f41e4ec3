import { ChainTransaction } from '../../src/modules/chain/chain-transaction.entity';
import { projection, rowRecord } from '../../src/persistence/read-record';
import { Order } from '../../src/modules/order/order.entity';
import { bearerOf } from '../support/auth.factories';
import { aHolding, aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aOneStepOrder } from '../support/one-step.factories';
import { aSimulator, aTwoStepOrder, providersFor } from '../support/order.factories';
import type { SupplySimulator } from '../../src/supply/simulator';

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface FieldInfo {
  name: string;
  type: TypeRef;
}

const named = (t: TypeRef): TypeRef => (t.ofType ? named(t.ofType) : t);

/**
 * A page of orders reads only the columns of the fields it is asked for. Every field of the
 * Order type, asked for alone in a page, answers exactly what the full read of the same order
 * answers: a resolver that reads a column it did not declare with `@Reads` would fail here.
 */
describe('GraphQL: a page of orders reads only what it is asked for', () => {
  let gw: TestGateway;
  let sim: SupplySimulator;

  beforeAll(async () => {
    sim = await aSimulator();
    gw = await startTestGateway({ supply: providersFor(sim) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.stop();
  });

  async function fieldsOf(type: string, token: string): Promise<FieldInfo[]> {
    const res = await gw.graphql(
      `query($t: String!) { __type(name: $t) { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }`,
      { t: type },
      { token },
    );
    return res.body.data.__type.fields;
  }

  /** `name`, or for an object field `name { its leaf fields }`. */
  async function selection(field: FieldInfo, token: string): Promise<string> {
    const t = named(field.type);
    if (t.kind !== 'OBJECT') return field.name;
    const leaves = (await fieldsOf(t.name!, token)).filter((f) => ['SCALAR', 'ENUM'].includes(named(f.type).kind)).map((f) => f.name);
    return `${field.name} { ${leaves.join(' ')} }`;
  }

  it('every field of Order, asked for alone in a page by ops or by the distributor, is what the full read of that order says', async () => {
    // given orders of both flows, pushed, settled, failed and cancelled, so every field has a value somewhere
    await gw.reset();
    const m = await aMarket(gw.em(), gw.clock.now());
    sim.addFund(m.shareClass.fund.id);
    await aHolding(gw.em(), m.investor, m.shareClass, '100');
    const twoStep = await aTwoStepOrder(gw, m, { externalRef: 'projection-1' });
    expect((await gw.api('POST', `/orders/subscriptions/push/${twoStep.orderId}`, { host: m.hostA })).status).toBe(200);
    await aTwoStepOrder(gw, m);
    const settled = await aOneStepOrder(gw, m, { stage: 'settled', walletAddress: `0x${'12'.repeat(20)}`, chainId: '11155111' });
    // Its settlement transaction, as the chain sender records one (src/modules/chain/sender.ts).
    const em = gw.em();
    em.create(ChainTransaction, {
      chainId: '11155111',
      fromAddress: `0x${'34'.repeat(20)}`,
      purpose: 'settlement.mint',
      correlation: `order:${settled.id}`,
      data: '0x',
      requiredConfirmations: 2,
      createdAt: new Date(),
      updatedAt: new Date(),
    } as never);
    await em.flush();
    await aOneStepOrder(gw, m, { type: 'redeem', tokenCount: '5', stage: 'failed' });
    await aOneStepOrder(gw, m, { stage: 'cancelled' });
    const token = await gw.opsToken();
    const fields = await fieldsOf('Order', token);
    expect(fields.length).toBeGreaterThan(30);

    const neverSet = new Set<string>();
    // Ops see every order unchecked; a distributor's orders pass the trust boundary's owner check.
    for (const principal of [{ token }, { headers: await bearerOf(gw, m.distributor) }]) {
      for (const field of fields) {
        // when the page is asked for this field alone
        const sel = await selection(field, token);
        const page = await gw.graphql(`{ orders(page: { first: 50 }) { items { ${sel} } } }`, {}, principal);
        const ids = await gw.graphql(`{ orders(page: { first: 50 }) { items { id } } }`, {}, principal);
        // then each order's value is the full read's
        expect([field.name, page.body.errors]).toEqual([field.name, undefined]);
        const items = page.body.data.orders.items as Record<string, unknown>[];
        expect(items).toHaveLength(5);
        for (const [i, item] of items.entries()) {
          const full = await gw.graphql(`query($id: ID!) { order(id: $id) { ${sel} } }`, { id: ids.body.data.orders.items[i].id }, principal);
          expect([field.name, item]).toEqual([field.name, full.body.data.order]);
        }
        if (items.every((item) => item[field.name] === null)) neverSet.add(field.name);
      }
    }
    // and the orders above give every field a value, so no comparison was of nulls only
    expect([...neverSet]).toEqual([]);
  });

  it('a record of a projection throws on a field it was not read with, rather than answering null', async () => {
    const em = gw.em();
    const columns = projection(em, Order, ['id', 'createdAt', 'status']);
    expect(columns.columns).toEqual(expect.arrayContaining(['id', 'created_at', 'status']));
    expect(columns.columns).toHaveLength(3);
    const record = rowRecord(em, Order, { id: 'OR000001', created_at: new Date(0), status: 'created' }, undefined, columns);
    expect(record.status).toBe('created');
    // The compiler refuses these reads (`record` is a Projected<Order, 'id' | 'createdAt' | 'status'>);
    // read past it, as code typed loosely would, the record still refuses.
    const loose = record as unknown as Order;
    expect(() => loose.amount).toThrow('Order.amount was not read');
    expect(() => loose.distributor).toThrow('Order.distributor was not read');
  });
});
