import { parse } from 'graphql';
import { runRoute } from '../../rest-compat/executor';
import { route, type RestRequest } from '../../rest-compat/route';
import { createContext } from '../../src/access/graphql-context';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { aTwoStepOrder } from '../support/order.factories';

/**
 * The REST facade runs its fixed operations compiled (graphql-jit, rest-compat/executor.ts). The
 * compiled code calls the schema's field resolvers as wrapped by the visibility guard, so the
 * tenant rule still holds at every depth: proved here by running operations through the
 * facade's executor as distributor B, over A's records.
 */
describe('compiled REST operations keep the tenant rule', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const request: RestRequest = { params: {}, query: {}, body: {}, headers: {} };

  async function runAs(distributorId: string, document: string, variables: Record<string, unknown>) {
    const em = gw.em();
    const ctx = await createContext({ em, principal: { kind: 'distributor', distributorId, surface: 'R' }, services: gw.gateway.services, requestId: 'test' });
    const row = route({
      method: 'GET',
      path: '/test',
      auth: 'host',
      doc: { summary: 'a compiled test operation', data: {} },
      document: parse(document),
      variables: () => variables,
      data: (r: unknown) => r,
    });
    return runRoute(gatewaySchema(), row, request, ctx);
  }

  it("answers another distributor's order like a missing one", async () => {
    // given: distributor A's order
    const w = await aMarket(gw.em(), gw.clock.now());
    const order = await aTwoStepOrder(gw, w);

    // when: distributor B reads it by id through a compiled operation
    const out = await runAs(w.other.id, 'query($id: ID!) { order(id: $id) { orderId distributorId } }', { id: order.orderId });

    // then
    expect(out).toEqual({ status: 404, body: { isError: true, errorMsg: 'order not found', data: {} } });
  });

  it('drops records of another distributor reached through a relation (the guard, not the resolver, filters them)', async () => {
    // given: one share class granted to A and to B (ShareClass.grants resolves every grant)
    const w = await aMarket(gw.em(), gw.clock.now());

    // when: B reads the share class's grants and their distributors
    const out = await runAs(w.other.id, 'query($id: ID!) { shareClass(id: $id) { id grants { distributorId distributor { id name } } } }', {
      id: w.shareClass.id,
    });

    // then: B's own grant only
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({
      shareClass: { id: w.shareClass.id, grants: [{ distributorId: w.other.id, distributor: { id: w.other.id, name: 'Other Distributor' } }] },
    });
    expect(JSON.stringify(out.body)).not.toContain(w.distributor.id);
  });
});
