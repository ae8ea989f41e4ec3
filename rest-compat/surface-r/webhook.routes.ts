import { CheckWebhookDocument, RegisterWebhookDocument, TestWebhookDocument, WebhooksDocument } from '../generated/graphql';
import { route } from '../route';
import { eventTypeInvalid } from '../../src/modules/webhook/webhook.errors';
import { MODULE_PARTS } from '../../src/modules/manifests';
import { arrayOf, bool, eventType, obj, str, successMessage, webhook, webhookWithSecret } from '../openapi/schemas';

/** The webhook record as registered, with the signing secret as an additive field shown once. */
export function registerWebhookRoute(auth: 'host' | 'bearer') {
  return route({
    method: 'POST',
    path: '/webhooks/register',
    auth,
    doc: {
      summary: 'Register a webhook for one event type',
      body: obj({ event_type: eventType, endpoint_url: str('Fully qualified HTTPS URL') }),
      data: webhookWithSecret,
      errors: {
        400: [eventTypeInvalid(MODULE_PARTS.webhookEvents.types).message, 'endpoint_url must be HTTPS', 'endpoint_url must resolve to a public address'],
        409: ['endpoint_url is already registered for <event_type>'],
      },
    },
    document: RegisterWebhookDocument,
    variables: (req) => ({ input: { event_type: req.body.event_type, endpoint_url: req.body.endpoint_url } }),
    data: (r) => ({ ...r.registerWebhook.webhook, secret: r.registerWebhook.secret }),
  });
}

export const webhookRoutes = [
  route({
    method: 'GET',
    path: '/webhooks',
    auth: 'host',
    doc: { summary: "The distributor's webhooks", data: arrayOf(webhook) },
    document: WebhooksDocument,
    variables: () => ({}),
    data: (r) => r.webhooks,
  }),
  registerWebhookRoute('host'),
  route({
    method: 'GET',
    path: '/webhooks/check',
    auth: 'host',
    doc: {
      summary: 'Whether webhooks are registered at a URL (body on a GET, as the description sends it)',
      body: obj({ endpoint_url: str() }),
      data: obj({ exists: bool(), event_types: arrayOf(str()) }),
      errors: { 400: ['endpoint_url is required'] },
    },
    document: CheckWebhookDocument,
    // The description sends `endpoint_url` in the body of this GET.
    variables: (req) => ({ endpoint_url: req.body.endpoint_url }),
    data: (r) => r.checkWebhook,
  }),
  testWebhookRoute('host'),
];

/** `POST /webhooks/test` on either surface: a synthetic delivery of the webhook's event type, signed like any other. */
export function testWebhookRoute(auth: 'host' | 'bearer') {
  return route({
    method: 'POST',
    path: '/webhooks/test',
    auth,
    callsOut: true,
    doc: {
      summary: 'Send a synthetic delivery marked as a test',
      description:
        "Signed and shaped like a real delivery of the webhook's event type (see `webhooks`), with `data.test: true`; one attempt, not retried. `message` says whether the endpoint answered 2xx.",
      body: obj({ event_type: eventType, webhook_id: str('wh_…') }),
      data: successMessage,
      errors: {
        400: [eventTypeInvalid(MODULE_PARTS.webhookEvents.types).message, "event_type must match the webhook's event_type"],
        404: ['webhook_id not found'],
      },
      ...(auth === 'bearer' ? { additive: true } : {}),
    },
    document: TestWebhookDocument,
    variables: (req) => ({ input: { event_type: req.body.event_type, webhook_id: req.body.webhook_id } }),
    data: (r) => r.testWebhook,
  });
}
