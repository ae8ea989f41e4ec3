import { Investor } from '../../src/modules/investor/investor.entity';
import { aDistributor } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

describe('Surface R: POST /investor/register', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());
  beforeEach(() => gw.reset());

  const HOST = 'dist-a.test';
  async function distributors() {
    const mine = await aDistributor(gw.em(), [HOST]);
    const other = await aDistributor(gw.em(), ['dist-b.test']);
    return { mine, other };
  }
  const register = (body: unknown, headers?: Record<string, string>) => gw.api('POST', '/investor/register', { host: HOST, body, headers });

  it('returns the investor record with a new IN###### id, status active, no grants, email and countryCode echoed', async () => {
    // given
    const { mine } = await distributors();
    // when
    const res = await register({ distributorId: mine.id, externalInvestorId: 'partner-user-77', email: 'Ada@Example.com', countryCode: 'LU' });
    // then
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isError: false, errorMsg: 'NA' });
    expect(res.body.data).toEqual({
      investorId: expect.stringMatching(/^IN\d{6}$/),
      distributorId: mine.id,
      externalInvestorId: 'partner-user-77',
      email: 'Ada@Example.com',
      countryCode: 'LU',
      status: 'active',
      grantedSC: [],
      createdAt: expect.any(Number),
      createdBy: 'Network',
      updatedAt: expect.any(Number),
      updatedBy: 'Network',
    });
    // and it is persisted
    const stored = await gw.em().findOneOrFail(Investor, { id: res.body.data.investorId });
    expect(stored).toMatchObject({ externalInvestorId: 'partner-user-77', email: 'Ada@Example.com', status: 'active' });
    expect(stored.distributor.id).toBe(mine.id);
  });

  it('email and countryCode are optional', async () => {
    const { mine } = await distributors();
    const res = await register({ distributorId: mine.id, externalInvestorId: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ email: null, countryCode: null, status: 'active', grantedSC: [] });
  });

  it('stamps createdBy and updatedBy from x-actor', async () => {
    const { mine } = await distributors();
    gw.clock.set(new Date(Date.UTC(2030, 0, 1, 12)));
    const res = await register({ distributorId: mine.id, externalInvestorId: 'x' }, { 'x-actor': 'onboarding-bot' });
    expect(res.body.data).toMatchObject({
      createdBy: 'onboarding-bot',
      updatedBy: 'onboarding-bot',
      createdAt: Date.UTC(2030, 0, 1, 12),
      updatedAt: Date.UTC(2030, 0, 1, 12),
    });
  });

  it('the same (distributorId, externalInvestorId) twice makes two investors', async () => {
    const { mine } = await distributors();
    const first = await register({ distributorId: mine.id, externalInvestorId: 'same' });
    const second = await register({ distributorId: mine.id, externalInvestorId: 'same' });
    expect(second.status).toBe(200);
    expect(second.body.data.investorId).not.toBe(first.body.data.investorId);
    expect(await gw.em().count(Investor, { externalInvestorId: 'same' })).toBe(2);
  });

  it.each([
    ['distributorId', { externalInvestorId: 'x' }],
    ['distributorId', { distributorId: '', externalInvestorId: 'x' }],
    ['distributorId', { distributorId: '   ', externalInvestorId: 'x' }],
    ['distributorId', { distributorId: null, externalInvestorId: 'x' }],
    ['externalInvestorId', { distributorId: 'DT000001' }],
    ['externalInvestorId', { distributorId: 'DT000001', externalInvestorId: '' }],
  ])('a missing or empty %s is 400 `<field> is required` (%j)', async (field, body) => {
    await distributors();
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ isError: true, errorMsg: `${field} is required`, data: {} });
  });

  it('with both fields missing the first required field is named', async () => {
    await distributors();
    const res = await register({});
    expect(res.body).toEqual({ isError: true, errorMsg: 'distributorId is required', data: {} });
  });

  it('an unknown distributor is 404 `distributorId not found: DT…`', async () => {
    await distributors();
    const res = await register({ distributorId: 'DT999999', externalInvestorId: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ isError: true, errorMsg: 'distributorId not found: DT999999', data: {} });
  });

  it("another distributor's id answers exactly as if it did not exist, and creates nothing", async () => {
    const { other } = await distributors();
    const res = await register({ distributorId: other.id, externalInvestorId: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ isError: true, errorMsg: `distributorId not found: ${other.id}`, data: {} });
    expect(await gw.em().count(Investor, {})).toBe(0);
  });

  it('a field of the wrong JSON type is 400 naming the field', async () => {
    const { mine } = await distributors();
    const res = await register({ distributorId: mine.id, externalInvestorId: 12345 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ isError: true, errorMsg: 'externalInvestorId must be a string', data: {} });
    const email = await register({ distributorId: mine.id, externalInvestorId: 'x', email: ['a@b.c'] });
    expect(email.body).toEqual({ isError: true, errorMsg: 'email must be a string', data: {} });
  });
});
