import { DeliveryMode } from '../../src/modules/distributor/distributor.entity';
import { aDistributor, aGrant, anInvestor, aShareClass } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * Relations are batch-loaded: a page of investors with their distributor, grants and wallets
 * costs the same number of SQL statements whether it holds 10 investors or 100.
 */
describe('GraphQL relations without N+1', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const PAGE = `query($first: Int) {
    investors(page: {first: $first}) {
      items {
        id email grantedSC
        distributor { id name partnerId hosts { hostname } grants { deliveryMode shareClass { id currency } } }
        wallets { chainId address status }
      }
      nextCursor
    }
  }`;

  /** Runs the page and counts the statements the database received meanwhile. */
  async function statementsFor(first: number): Promise<{ count: number; items: any[] }> {
    const token = await gw.opsToken();
    // The token is read once, then remembered (OpsTokenService): outside the count.
    expect((await gw.graphql('{ opsTokenName }', undefined, { token })).status).toBe(200);
    const knex = gw.db.orm.em.getConnection().getKnex();
    const statements: string[] = [];
    const listener = (q: { sql: string }) => statements.push(q.sql);
    knex.on('query', listener);
    try {
      const res = await gw.graphql(PAGE, { first }, { token });
      expect(res.body.errors).toBeUndefined();
      return { count: statements.length, items: res.body.data.investors.items };
    } finally {
      knex.removeListener('query', listener);
    }
  }

  it('a page of 100 investors with distributor and grants costs as many statements as a page of 10', async () => {
    // given 120 investors of 4 distributors, each granted two share classes, each with a wallet
    const classes = [await aShareClass(gw.em()), await aShareClass(gw.em())];
    for (let d = 0; d < 4; d++) {
      const distributor = await aDistributor(gw.em(), [`batch-${d}.test`]);
      for (const sc of classes) await aGrant(gw.em(), distributor, sc, d % 2 ? DeliveryMode.hold : DeliveryMode.passthrough);
      for (let i = 0; i < 30; i++) await anInvestor(gw.em(), distributor, { grants: classes });
    }
    // when
    const ten = await statementsFor(10);
    const hundred = await statementsFor(100);
    // then every relation is there
    expect(ten.items).toHaveLength(10);
    expect(hundred.items).toHaveLength(100);
    for (const item of hundred.items) {
      expect(item.grantedSC).toEqual(classes.map((c) => c.id));
      expect(item.distributor.grants).toHaveLength(2);
      expect(item.wallets).toHaveLength(1);
    }
    // and the cost does not grow with the page
    expect(hundred.count).toBe(ten.count);
    if (process.env.SHOW_COUNTS) process.stdout.write(`statements: 10 → ${ten.count}, 100 → ${hundred.count}\n`);
    // page, distributors, hosts, distributor grants, share classes, investor grants, wallets (the token check is remembered)
    expect(hundred.count).toBeLessThanOrEqual(7);
  });
});
