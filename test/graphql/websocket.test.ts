import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { WS_CLOSE } from '../../src/transports/websocket/websocket';
import { aTokenPair } from '../support/auth.factories';
import { aDistributor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { subscribe } from '../support/subscriptions';

const ORDER_UPDATES = 'subscription { orderUpdated { eventId orderId status } }';
const JWT = { signingKey: 'a-staging-signing-key-of-at-least-32-chars', issuer: 'fund-distribution-gateway', refreshTokenTtlSeconds: 3600 };

/** A graphql-ws connection, and the code it is eventually closed with. */
async function connect(port: number, token: string): Promise<{ client: Client; closed: Promise<number> }> {
  let onClosed!: (code: number) => void;
  const closed = new Promise<number>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
  });
  client.on('closed', (e) => onClosed((e as { code: number }).code));
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    void closed.then((code) => reject(new Error(`closed: ${code}`)));
  });
  return { client, closed };
}

/** The errors one operation over the socket answers with. */
function errorsOf(client: Client, query: string): Promise<{ message: string; extensions?: { code?: string } }[]> {
  return new Promise((resolve) => {
    client.subscribe({ query }, { next: (m) => m.errors && resolve(m.errors as never), error: (e) => resolve(e as never), complete: () => resolve([]) });
  });
}

describe('GraphQL over graphql-ws, outside development', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // given a staging gateway re-checking socket credentials every 100 ms
    gw = await startTestGateway({ config: { env: 'staging', jwt: JWT }, websocketRecheckMs: 100 });
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  it('refuses a connection without a principal or with an invalid token (4403)', async () => {
    await expect(subscribe(gw.port, ORDER_UPDATES, {})).rejects.toThrow('closed: 4403');
    await expect(subscribe(gw.port, ORDER_UPDATES, {}, 'ops_not-a-token')).rejects.toThrow('closed: 4403');
  });

  it('closes the socket on a message larger than BODY_LIMIT (1009)', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const code = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: 'Bearer x', pad: 'x'.repeat(101 * 1024) } }));
    expect(await code).toBe(1009);
  });

  it('applies the HTTP limits, introspection refusal and error masking to every operation', async () => {
    const { client } = await connect(gw.port, await gw.opsToken());
    let deep = 'id';
    for (let i = 0; i < 5; i++) deep = `grants { distributor { ${deep} } }`;
    expect((await errorsOf(client, `subscription { orderUpdated { order { distributor { ${deep} } } } }`))[0]).toEqual({
      message: expect.stringMatching(/depth limit of 10 exceeded/i),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: health { status }`).join(' ');
    expect((await errorsOf(client, `{ ${aliases} }`))[0].message).toMatch(/aliases limit of 15 exceeded/i);
    const tokens = Array.from({ length: 1100 }, () => 'health { status }').join(' ');
    expect((await errorsOf(client, `{ ${tokens} }`))[0].message).toMatch(/more tha[nt] 2000 tokens/);
    expect((await errorsOf(client, '{ __schema { queryType { name } } }'))[0].message).toMatch(/introspection/i);
    expect((await errorsOf(client, 'subscription { orderUpdatd { eventId } }'))[0].message).toBe('Cannot query field "orderUpdatd" on type "Subscription".');
    // a resolver's failure goes through the one error table, as on HTTP
    expect((await errorsOf(client, '{ distributor(id: "DT999999") { id } }'))[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    await client.dispose();
  });

  it('applies the HTTP input rules to every operation: a NUL in an argument is refused before anything subscribes', async () => {
    const { client } = await connect(gw.port, await gw.opsToken());
    expect(await errorsOf(client, 'subscription { orderUpdated(shareClassId: "SC\\u0000001") { eventId } }')).toEqual([
      expect.objectContaining({ message: 'shareClassId must not contain control characters', extensions: { code: 'BAD_USER_INPUT' } }),
    ]);
    await client.dispose();
  });

  it("closes a distributor's subscription when its access token expires (4401)", async () => {
    const distributor = await aDistributor(gw.em());
    const { accessToken } = await aTokenPair(gw, distributor);
    const { client, closed } = await connect(gw.port, accessToken);
    client.subscribe({ query: ORDER_UPDATES }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    gw.clock.advance(16 * 60_000);
    expect(await closed).toBe(WS_CLOSE.credentialEnded);
  });

  it('closes it when its API credential is revoked (4401)', async () => {
    const distributor = await aDistributor(gw.em());
    const { accessToken, apiKey } = await aTokenPair(gw, distributor);
    const { closed } = await connect(gw.port, accessToken);
    const revoked = await gw.graphql('mutation($k: String!) { revokeApiCredential(apiKey: $k) }', { k: apiKey }, { token: await gw.opsToken() });
    expect(revoked.body).toEqual({ data: { revokeApiCredential: true } });
    expect(await closed).toBe(WS_CLOSE.credentialEnded);
  });

  it('closes it when its distributor is suspended (4401), and a new connection is refused (4403)', async () => {
    const distributor = await aDistributor(gw.em());
    const { accessToken } = await aTokenPair(gw, distributor);
    const { closed } = await connect(gw.port, accessToken);
    const suspended = await gw.graphql(
      'mutation($id: ID!) { updateDistributor(id: $id, input: {status: "suspended"}) { status } }',
      { id: distributor.id },
      { token: await gw.opsToken() },
    );
    expect(suspended.body).toEqual({ data: { updateDistributor: { status: 'suspended' } } });
    expect(await closed).toBe(WS_CLOSE.credentialEnded);
    await expect(connect(gw.port, accessToken)).rejects.toThrow(`closed: ${WS_CLOSE.forbidden}`);
  });

  it('closes an ops subscription when its ops token is revoked (4401)', async () => {
    const token = await gw.opsToken();
    const { closed } = await connect(gw.port, token);
    await gw.gateway.services.opsToken.revokeByName(gw.em(), 'test-ops');
    expect(await closed).toBe(WS_CLOSE.credentialEnded);
  });
});
