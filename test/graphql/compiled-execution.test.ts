import { aMarket } from '../support/factories';
import { bearerOf } from '../support/auth.factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aTwoStepOrder } from '../support/order.factories';

/**
 * /graphql runs a query graphql-js's way the first time and compiled (graphql-jit,
 * src/transports/graphql/compiled-execution.ts) from its second request on. Both must answer the same,
 * the tenant rule included: every case here sends its query three times and expects three
 * identical answers (status, body and headers that matter).
 */
describe('GraphQL: a repeated query answers as its first run did', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  async function thrice(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await gw.graphql(query, variables, { headers });
      // the stack trace development adds to an error is not part of the answer (its async frames vary)
      const body = res.body.errors
        ? { ...res.body, errors: res.body.errors.map(({ extensions: { stacktrace: _s, ...extensions } = {}, ...e }: any) => ({ ...e, extensions })) }
        : res.body;
      answers.push({ status: res.status, body, cacheControl: res.headers['cache-control'] });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    return answers[0];
  }

  it("answers another distributor's order like a missing one", async () => {
    // given: distributor A's order
    const w = await aMarket(gw.em(), gw.clock.now());
    const order = await aTwoStepOrder(gw, w);

    // when: distributor B reads it by id, again and again
    const out = await thrice('query($id: ID!) { order(id: $id) { orderId distributorId } }', { id: order.orderId }, await bearerOf(gw, w.other));

    // then
    expect(out.status).toBe(200);
    expect(out.body.errors).toEqual([expect.objectContaining({ message: 'order not found', extensions: { code: 'NOT_FOUND' } })]);
  });

  it('drops records of another distributor reached through a relation', async () => {
    // given: one share class granted to A and to B
    const w = await aMarket(gw.em(), gw.clock.now());

    // when: B reads the share class's grants and their distributors, again and again
    const out = await thrice(
      'query($id: ID!) { shareClass(id: $id) { id grants { distributorId distributor { id name } } } }',
      { id: w.shareClass.id },
      await bearerOf(gw, w.other),
    );

    // then: B's own grant only
    expect(out.body).toEqual({
      data: { shareClass: { id: w.shareClass.id, grants: [{ distributorId: w.other.id, distributor: { id: w.other.id, name: 'Other Distributor' } }] } },
    });
    expect(out.cacheControl).toBe('no-store');
  });

  it('maps a refusal and refuses a bad variable as the first run did', async () => {
    const w = await aMarket(gw.em(), gw.clock.now());
    const distributor = await bearerOf(gw, w.distributor);

    const refused = await thrice('{ opsTokenName }', {}, distributor);
    expect(refused.body.errors).toEqual([expect.objectContaining({ message: 'ops access required', extensions: { code: 'FORBIDDEN' } })]);

    const badVariable = await thrice('query($id: ID!) { order(id: $id) { orderId } }', { id: 7.5 }, distributor);
    expect(badVariable.status).toBe(400);
  });
});
