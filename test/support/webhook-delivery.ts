import { startTestGateway, type TestGateway } from './gateway';
import { aPendingOrder, moveOrder } from './event.factories';
import { makeCertificates, WebhookReceiver, type TestCertificates } from './webhook-receiver';

/*
 * The webhook delivery tests' side: a gateway delivering in the background to a TLS receiver it
 * trusts, and what those tests ask of it.
 */

export const EVENT_TYPES = ['order.accepted', 'order.rejected', 'token.transfer_completed', 'token.transfer_failed'] as const;

/** The delivery settings of a gateway that may deliver to the receiver on loopback. */
export const deliveryEvents = (certs: TestCertificates, pollMs = 50) => ({ webhookAllowedHosts: ['127.0.0.1'], webhookCaFile: certs.caFile, pollMs });

/** A receiver with its certificates, and a gateway delivering to it whose clock the receiver shares. */
export async function aDeliveringGateway(
  pollMs = 50,
): Promise<{ gw: TestGateway; certs: TestCertificates; receiver: WebhookReceiver; close: () => Promise<void> }> {
  const certs = await makeCertificates();
  const receiver = await WebhookReceiver.start(certs);
  const gw = await startTestGateway({ background: true, events: deliveryEvents(certs, pollMs) });
  receiver.clock = gw.clock;
  const close = async () => {
    await gw.close();
    await receiver.close();
    certs.cleanup();
  };
  return { gw, certs, receiver, close };
}

/**
 * A sentinel: a new order of `parties` moved to `status`, committed after whatever a negative
 * check says must not arrive; once its delivery arrives, those would have arrived before it.
 */
export async function sentinel(
  gw: TestGateway,
  receiver: WebhookReceiver,
  parties: Parameters<typeof aPendingOrder>[1],
  status: 'accepted' | 'rejected' = 'rejected',
) {
  const id = await aPendingOrder(gw.db.orm, parties, gw.clock.now());
  await moveOrder(gw.db.orm, id, status, gw.clock.now());
  await receiver.waitFor((all) => all.some((r) => r.json.data.orderId === id));
  return { id, others: () => receiver.received.filter((r) => r.json.data.orderId !== id) };
}

/** Registers the distributor of `host` for every event at the receiver's `path`; the id and secret by event type. */
export async function registerForEveryEvent(
  gw: TestGateway,
  receiver: WebhookReceiver,
  host: string,
  path: string,
): Promise<Record<string, { id: string; secret: string }>> {
  const out: Record<string, { id: string; secret: string }> = {};
  for (const event_type of EVENT_TYPES) {
    const res = await gw.api('POST', '/webhooks/register', { host, body: { event_type, endpoint_url: receiver.url(path) } });
    expect(res.status).toBe(200);
    out[event_type] = { id: res.body.data.id, secret: res.body.data.secret };
  }
  return out;
}

/** An ops GraphQL operation that must succeed; its data. */
export async function opsData(gw: TestGateway, query: string, variables: Record<string, unknown> = {}) {
  const res = await gw.graphql(query, variables, { token: await gw.opsToken() });
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

/** Waits until no attempt is under way, so moving the clock cannot race a failure being recorded. */
export async function noAttemptUnderWay(gw: TestGateway) {
  for (let i = 0; i < 200; i++) {
    const d = await opsData(gw, `query { webhookDeliveries(status: in_flight) { id } }`);
    if (!d.webhookDeliveries.length) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('deliveries still in flight');
}
