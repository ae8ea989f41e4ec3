import { Webhook } from '../../src/modules/webhook/webhook.entity';
import { aMarket } from '../support/factories';
import { startTestGateway, type TestGateway } from '../support/gateway';

/** Registration is checked in the service and enforced by a unique index, so a race still gives one webhook. */
describe('the same URL registered for one event type at once', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  it('gives one webhook; every other request answers 409 endpoint_url is already registered', async () => {
    // given a distributor on surface R
    const { hostA, distributor } = await aMarket(gw.em(), gw.clock.now());
    const body = { event_type: 'order.accepted', endpoint_url: 'https://hooks.race.example/fund' };
    // when eight registrations of the same URL and event arrive together
    const answers = await Promise.all(Array.from({ length: 8 }, () => gw.api('POST', '/webhooks/register', { host: hostA, body })));
    // then one is created and the others are refused as duplicates
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ isError: true, errorMsg: 'endpoint_url is already registered for order.accepted', data: {} });
    }
    expect(await gw.em().count(Webhook, { distributor: distributor.id })).toBe(1);
    // and another event type at the same URL is still its own registration
    expect((await gw.api('POST', '/webhooks/register', { host: hostA, body: { ...body, event_type: 'order.rejected' } })).status).toBe(200);
  });
});
