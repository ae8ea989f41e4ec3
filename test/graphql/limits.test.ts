import { introspectionFromSchema, parse, specifiedRules, validate } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOrdersPage } from '../../bench/graphql-page';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/config/graphql-limits';
import { graphqlGuards } from '../../src/transports/graphql/limits';
import { gatewaySchema } from '../../src/transports/graphql/schema';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';

/** `grants { distributor { grants { distributor … } } }`, `levels` times. */
const nestedGrants = (levels: number) => {
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `grants { distributor { ${inner} } }`;
  return `query($id: ID!) { distributor(id: $id) { ${inner} } }`;
};

/** The same mutation under `n` aliases: each would be an scrypt run. */
const aliasedTokenRequests = (n: number) => `mutation { ${Array.from({ length: n }, (_, i) => `t${i}: issueAccessToken { accessToken }`).join(' ')} }`;

const JWT = { signingKey: 'a-staging-signing-key-of-at-least-32-chars', issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 3600 };

describe('GraphQL limits over HTTP', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // given a gateway outside development (no introspection, no suggestions)
    gw = await startTestGateway({ config: { env: 'staging', jwt: JWT } });
  });
  afterAll(() => gw.close());

  const refused = async (query: string, token?: string) => {
    const res = await gw.graphql(query, { id: 'DT000001' }, { token });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    return res.body.errors!.map((e: { message: string }) => e.message).join('\n');
  };

  it('refuses a document nesting deeper than GRAPHQL_MAX_DEPTH through grants { distributor { grants … } }', async () => {
    const ops = await gw.opsToken();
    expect(await refused(nestedGrants(5), ops)).toMatch(/depth limit of 10 exceeded/i);
    // within the limit, the same shape is answered
    const ok = await gw.graphql(nestedGrants(4), { id: 'DT999999' }, { token: ops });
    expect(ok.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('refuses hundreds of aliased issueAccessToken calls before running any', async () => {
    expect(await refused(aliasedTokenRequests(300))).toMatch(/aliases limit of 15 exceeded/i);
    // 15 aliases are still a document that runs (and is refused for want of credentials)
    const res = await gw.graphql(aliasedTokenRequests(15));
    expect(res.status).toBe(200);
    expect(res.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a document of more than GRAPHQL_MAX_TOKENS tokens', async () => {
    const query = `{ ${Array.from({ length: 1100 }, () => 'health { status }').join(' ')} }`;
    const res = await gw.graphql(query);
    expect(res.status).toBe(400);
    // (graphql-js spells it "more that")
    expect(res.body.errors![0]).toMatchObject({
      message: expect.stringMatching(/^Syntax Error: Document contains more tha[nt] 2000 tokens/),
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
  });

  it('refuses batched requests (a JSON array of operations)', async () => {
    const res = await httpRequest(gw.port, 'POST', '/graphql', { body: [{ query: '{ health { status } }' }, { query: '{ health { status } }' }] });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/batching/i);
  });

  it('refuses introspection and hides field suggestions', async () => {
    expect(await refused('{ __schema { types { name } } }')).toMatch(/introspection/i);
    const res = await gw.graphql('{ healht { status } }');
    expect(res.status).toBe(400);
    expect(res.body.errors![0].message).toBe('Cannot query field "healht" on type "Query".');
  });
});

describe('GraphQL limits in development', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { env: 'development', graphqlLimits: { ...DEFAULT_GRAPHQL_LIMITS, maxCost: 20 } } });
  });
  afterAll(() => gw.close());

  it('answers introspection and suggests field names', async () => {
    const res = await gw.graphql('{ __schema { queryType { name } } }');
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    const typo = await gw.graphql('{ healht { status } }');
    expect(typo.body.errors![0].message).toMatch(/Did you mean "health"\?/);
  });

  it('refuses a document above GRAPHQL_MAX_COST', async () => {
    const ops = await gw.opsToken();
    const res = await gw.graphql(
      'query($id: ID!) { distributor(id: $id) { id name status partnerId hosts { hostname distributorId } wallets { chainId address } grants { shareClassId distributorId deliveryMode } } }',
      { id: 'DT000001' },
      { token: ops },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors![0].message).toMatch(/cost limit of 20 exceeded/i);
  });
});

describe('the default limits hold every operation the gateway itself sends', () => {
  const guards = graphqlGuards(DEFAULT_GRAPHQL_LIMITS, { introspection: false });
  const schema = gatewaySchema();
  const rules = [...specifiedRules, ...guards.validationRules];
  const dir = join(__dirname, '..', '..', 'rest-compat', 'operations');
  const files = readdirSync(dir).filter((f) => f.endsWith('.graphql'));

  it.each(files)('rest-compat/operations/%s', (file) => {
    const document = guards.parse(readFileSync(join(dir, file), 'utf8'));
    expect(validate(schema, document, rules).map((e) => e.message)).toEqual([]);
  });

  it("the ops console's page of 100 orders with investor and share class", () => {
    const page = buildOrdersPage(introspectionFromSchema(schema), { distributorId: 'DT000001', size: 100 });
    if (typeof page === 'string') throw new Error(page);
    const withHistory = page.query.replace(/\bid\b/, 'id statusHistory { at status by note }');
    for (const query of [page.query, withHistory]) expect(validate(schema, parse(query), rules).map((e) => e.message)).toEqual([]);
  });
});
