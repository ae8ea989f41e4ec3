import { CheckWebhookDocument, RegisterWebhookDocument, TestWebhookDocument, WebhooksDocument } from '../generated/graphql';
import { route, type RestRequest } from '../route';

/** The webhook record as registered, with the signing secret as an additive field shown once. */
export function registerWebhookRoute(auth: 'host' | 'bearer') {
  return route({
    method: 'POST',
    path: '/webhooks/register',
    auth,
    document: RegisterWebhookDocument,
    variables: (req: RestRequest) => ({ input: { event_type: req.body.event_type, endpoint_url: req.body.endpoint_url } as never }),
    data: (r) => ({ ...r.registerWebhook.webhook, secret: r.registerWebhook.secret }),
  });
}

export const webhookRoutes = [
  route({ method: 'GET', path: '/webhooks', auth: 'host', document: WebhooksDocument, variables: () => ({}), data: (r) => r.webhooks }),
  registerWebhookRoute('host'),
  route({
    method: 'GET',
    path: '/webhooks/check',
    auth: 'host',
    document: CheckWebhookDocument,
    // The description sends `endpoint_url` in the body of this GET.
    variables: (req) => ({ endpoint_url: req.body.endpoint_url as never }),
    data: (r) => r.checkWebhook,
  }),
  route({
    method: 'POST',
    path: '/webhooks/test',
    auth: 'host',
    document: TestWebhookDocument,
    variables: (req) => ({ input: { event_type: req.body.event_type, webhook_id: req.body.webhook_id } as never }),
    data: (r) => r.testWebhook,
  }),
];
