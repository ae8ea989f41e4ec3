import { createServer, type Server } from 'node:net';
import { createPublicClient, http } from 'viem';
import { isDatabaseAway, isChainUnreachable } from '../../src/modules/chain/chain.errors';

/**
 * A background pass names what is away: a node that refuses its socket is a chain outage, logged
 * per chain, not "database unavailable" (the same ECONNREFUSED sits under viem's error). Real
 * errors: viem against a port nothing listens on, and node-postgres' shape of the same refusal.
 */
describe('What a failed pass blames', () => {
  let closedPort: number;
  beforeAll(async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedPort = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a node that refuses the connection is the chain, not the database', async () => {
    const client = createPublicClient({ transport: http(`http://127.0.0.1:${closedPort}`, { retryCount: 0 }) });
    const err = await client.getBlockNumber().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).not.toBeNull();
    expect(isChainUnreachable(err)).toBe(true);
    expect(isDatabaseAway(err)).toBe(false);
  });

  it('a database socket refused is the database', () => {
    const refused = Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${closedPort}`), { code: 'ECONNREFUSED' });
    expect(isDatabaseAway(refused)).toBe(true);
  });
});
