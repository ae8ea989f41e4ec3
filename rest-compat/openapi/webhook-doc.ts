import { RETRY_SCHEDULE_MS, JITTER } from '../../src/modules/webhook/webhook-delivery';
import { DEFAULT_ROTATION_OVERLAP_MS } from '../../src/modules/webhook/webhook.service';
import { MODULE_PARTS } from '../../src/modules/manifests';
import type { JsonSchema } from './schemas';

/*
 * How every webhook delivery is made, said once: the OpenAPI documents' `webhooks` section lists
 * one operation per event type (MODULE_PARTS.webhookEvents.types, the list registration and the test endpoint
 * read), each with this description and the signature headers.
 */

/** `5 s`, `30 min`, `2 h`: a delay as the schedule is read aloud. */
function spoken(ms: number): string {
  if (ms === 0) return 'immediately';
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3600_000) return `${ms / 60_000} min`;
  return `${ms / 3600_000} h`;
}

/** The receiver's tolerance the Standard Webhooks libraries apply by default. */
const TOLERANCE_SECONDS = 300;

export const WEBHOOK_DELIVERY_DESCRIPTION = [
  'Deliveries follow the Standard Webhooks specification (https://www.standardwebhooks.com): a `POST` of the JSON body `{"event_type", "data"}` with three headers.',
  '- `webhook-id`: the event id (`evt_…`, equal to `data.eventId`), the same on every retry: de-duplicate by it (delivery is at least once).',
  '- `webhook-timestamp`: Unix seconds of this attempt. Refuse a timestamp more than ' +
    `${TOLERANCE_SECONDS / 60} minutes from your clock (the default tolerance of the Standard Webhooks libraries) so a captured delivery cannot be replayed.`,
  '- `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the base64-decoded part of the secret after `whsec_`. ' +
    'The secret is the `secret` field of the `POST /webhooks/register` answer, shown once. Compare in constant time against the raw bytes received, before parsing.',
  `- Secret rotation: when the gateway's operators rotate a webhook's secret, the previous one keeps signing alongside the new one for ${DEFAULT_ROTATION_OVERLAP_MS / 3600_000} h unless they choose another overlap; ` +
    '`webhook-signature` then holds two space-separated signatures and a receiver accepts the delivery when either verifies with the secret it holds.',
  `- Retries: a 2xx answer within the gateway's timeout (15 s unless \`WEBHOOK_TIMEOUT_MS\` says otherwise) is success; anything else (a 3xx included: redirects are not followed) is retried ${RETRY_SCHEDULE_MS.map(spoken).join(', ')} ` +
    `after each failure (each delay ±${JITTER * 100}%), then the delivery is abandoned. \`Retry-After\` on 429 or 503 is honoured; 410 Gone disables the webhook.`,
  '- Any Standard Webhooks library verifies a delivery, e.g. `new Webhook(secret).verify(rawBody, headers)` of the `standardwebhooks` npm package.',
  "- `POST /webhooks/test` (both surfaces) sends a synthetic delivery of the webhook's event type, signed the same way, with `data.test: true`.",
  '- Missed deliveries: `GET /events?after=<cursor>` serves the same `data` for 30 days.',
  '- A receiver on your machine: endpoints must resolve to public addresses, except hosts the gateway is started with in `WEBHOOK_ALLOWED_HOSTS` (comma-separated hosts, addresses or CIDR ranges). ' +
    "A development gateway (`npm start`) run with `WEBHOOK_ALLOWED_HOSTS=127.0.0.1` and `WEBHOOK_CA_FILE=<PEM file of the CA that signed your receiver's certificate>` " +
    'delivers to `https://127.0.0.1:<port>/…`: TLS is still verified, against the system roots plus that file only (the certificate must name 127.0.0.1 among its subject alternative names). ' +
    'Register the URL, then `POST /webhooks/test` to get a signed delivery of any event type.',
].join('\n');

const header = (name: string, description: string, pattern: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern },
});

const SIGNATURE_HEADERS = [
  header('webhook-id', 'The event id, the same on every retry: de-duplicate by it', '^evt_'),
  header('webhook-timestamp', 'Unix seconds of this attempt', '^[0-9]+$'),
  header('webhook-signature', '`v1,<base64 HMAC-SHA256>`; two space-separated during a secret rotation', '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$'),
];

export interface WebhookPayloadDoc {
  summary: string;
  data: JsonSchema;
  additive?: boolean;
}

/** The `webhooks` section: one operation per event type, in the order registration lists them; a type without a payload refuses to start. */
export function webhooksSection(payloads: Record<string, WebhookPayloadDoc>): Record<string, unknown> {
  const missing = MODULE_PARTS.webhookEvents.types.filter((t) => !payloads[t]);
  if (missing.length) throw new Error(`webhook event types without a documented payload: ${missing.join(', ')}`);
  return Object.fromEntries(
    MODULE_PARTS.webhookEvents.types.map((type) => {
      const p = payloads[type];
      return [
        type,
        {
          post: {
            summary: `${type}: ${p.summary}`,
            description: WEBHOOK_DELIVERY_DESCRIPTION,
            ...(p.additive ? { 'x-additive': true } : {}),
            parameters: SIGNATURE_HEADERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { event_type: { const: type }, data: p.data }, required: ['event_type', 'data'] },
                },
              },
            },
            responses: {
              '2XX': { description: 'Received: the delivery is done' },
              '410': { description: 'Gone: the gateway disables the webhook and stops delivering' },
              default: { description: 'Any other answer, or none within the timeout: retried on the schedule above' },
            },
          },
        },
      ];
    }),
  );
}
