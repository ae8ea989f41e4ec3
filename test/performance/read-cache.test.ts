import { DomainEvent } from '../../src/events/event.entity';
import { aMarket, aShareClass, CHAIN } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { asOps } from '../support/ops.factories';

/*
 * Surface R serves host mappings, grants, share classes and live NAVs from an in-process cache
 * (src/persistence/read-cache.ts). Every test first reads through the cache (so the old value is
 * cached), changes the record through the ops API, and reads again at once: the change's event,
 * committed with it, must have dropped the cached copy — never a stale answer after the event.
 */
describe('Read cache: a change is served at once after its event', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const liveNav = (host: string, shareClassId: string) => gw.api('GET', `/funds/shareclass/nav/live?shareClassId=${shareClassId}`, { host });
  const shareClass = (host: string, shareClassId: string) => gw.api('GET', `/funds/shareclass/${shareClassId}`, { host });

  it('a published NAV is the live NAV on the very next request, and the publication is in the event log', async () => {
    // given a live NAV that has been read (and cached)
    const { shareClass: sc, hostA } = await aMarket(gw.em(), gw.clock.now());
    expect((await liveNav(hostA, sc.id)).body.data.close).toBe('1.25');
    // when ops publish a newer one (within the class's tolerance: live at once)
    await asOps(gw, 'mutation($input: PublishNavInput!) { publishNav(input: $input) { entryId } }', { input: { shareClassId: sc.id, close: '1.26' } });
    // then the next read serves it
    const res = await liveNav(hostA, sc.id);
    expect(res.status).toBe(200);
    expect(res.body.data.close).toBe('1.26');
    expect(await gw.em().count(DomainEvent, { type: 'nav.published', aggregateId: sc.id })).toBe(1);
  });

  it('a share class change is served at once (share_class.updated)', async () => {
    const { shareClass: sc, hostA } = await aMarket(gw.em(), gw.clock.now());
    expect((await shareClass(hostA, sc.id)).body.data.feesSubBps).toBe(10);
    await asOps(gw, 'mutation($id: ID!, $input: UpdateShareClassInput!) { updateShareClass(id: $id, input: $input) { id } }', {
      id: sc.id,
      input: { feesSubBps: 42 },
    });
    const res = await shareClass(hostA, sc.id);
    expect(res.body.data.feesSubBps).toBe(42);
    expect(await gw.em().count(DomainEvent, { type: 'share_class.updated', aggregateId: sc.id })).toBe(1);
  });

  it('a new primary token moves defaultChainId at once (token.created)', async () => {
    const { shareClass: sc, hostA } = await aMarket(gw.em(), gw.clock.now());
    expect((await shareClass(hostA, sc.id)).body.data.defaultChainId).toBe(CHAIN);
    await asOps(gw, 'mutation($input: CreateTokenInput!) { createToken(input: $input) { id } }', {
      input: {
        shareClassId: sc.id,
        chainId: '8453',
        contractAddress: '0x00000000000000000000000000000000000000b5',
        name: 'Base token',
        symbol: 'TB',
        decimals: 6,
        isPrimary: true,
      },
    });
    expect((await shareClass(hostA, sc.id)).body.data.defaultChainId).toBe('8453');
  });

  it('a revoked grant hides the share class and its NAV at once; a new grant shows it at once', async () => {
    const { shareClass: sc, distributor, hostA } = await aMarket(gw.em(), gw.clock.now());
    expect((await shareClass(hostA, sc.id)).status).toBe(200);
    expect((await liveNav(hostA, sc.id)).status).toBe(200);
    await asOps(gw, 'mutation($input: RevokeShareClassInput!) { revokeShareClass(input: $input) { id } }', {
      input: { distributorId: distributor.id, shareClassId: sc.id },
    });
    expect((await shareClass(hostA, sc.id)).body).toEqual({ isError: true, errorMsg: 'shareClassId not found', data: {} });
    expect((await liveNav(hostA, sc.id)).body).toEqual({ isError: true, errorMsg: 'shareClassId not found', data: {} });
    await asOps(gw, 'mutation($input: GrantShareClassInput!) { grantShareClass(input: $input) { deliveryMode } }', {
      input: { distributorId: distributor.id, shareClassId: sc.id, deliveryMode: 'passthrough' },
    });
    expect((await shareClass(hostA, sc.id)).status).toBe(200);
  });

  it("one distributor's cached grants never answer for another: each sees only its own share classes", async () => {
    // given A sells two share classes, B only one; both have read
    const { shareClass: sc, distributor, hostA, hostB } = await aMarket(gw.em(), gw.clock.now());
    const onlyA = await aShareClass(gw.em());
    await asOps(gw, 'mutation($input: GrantShareClassInput!) { grantShareClass(input: $input) { deliveryMode } }', {
      input: { distributorId: distributor.id, shareClassId: onlyA.id, deliveryMode: 'passthrough' },
    });
    expect((await shareClass(hostA, onlyA.id)).status).toBe(200);
    expect((await shareClass(hostB, sc.id)).status).toBe(200);
    // then B is still refused A's share class, however often A read it
    const res = await shareClass(hostB, onlyA.id);
    expect(res.status).toBe(404);
    expect(res.body.errorMsg).toBe('shareClassId not found');
  });

  it('an unmapped hostname is refused at once; remapped to another distributor, it serves that one', async () => {
    const { shareClass: sc, distributor, other, hostA } = await aMarket(gw.em(), gw.clock.now());
    expect((await shareClass(hostA, sc.id)).status).toBe(200);
    await asOps(gw, 'mutation($h: String!) { removeDistributorHost(hostname: $h) { id } }', { h: hostA });
    const refused = await shareClass(hostA, sc.id);
    expect(refused.status).toBe(403);
    expect(await gw.em().count(DomainEvent, { type: 'distributor.host_unmapped', aggregateId: distributor.id })).toBe(1);
    // remapped to the other distributor, which lacks onlyA's grant
    const onlyA = await aShareClass(gw.em());
    await asOps(gw, 'mutation($input: GrantShareClassInput!) { grantShareClass(input: $input) { deliveryMode } }', {
      input: { distributorId: distributor.id, shareClassId: onlyA.id, deliveryMode: 'passthrough' },
    });
    await asOps(gw, 'mutation($input: DistributorHostInput!) { addDistributorHost(input: $input) { hostname } }', {
      input: { distributorId: other.id, hostname: hostA },
    });
    expect((await shareClass(hostA, onlyA.id)).status).toBe(404);
    expect((await shareClass(hostA, sc.id)).status).toBe(200);
  });
});
