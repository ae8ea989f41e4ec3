import { REST_PREFIX, type RestRoute, type RouteDoc } from '../route';
import { EXAMPLES } from './examples';
import { str, type JsonSchema } from './schemas';
import { distributionWebhooks } from './distribution-webhook';
import { holdingWebhooks } from './holding-webhook';
import { orderWebhooks } from './order-webhook';
import { walletRecoveryWebhooks } from './wallet-recovery-webhook';
import { navCorrectionWebhooks } from './nav-correction-webhook';
import { WEBHOOK_DELIVERY_DESCRIPTION, webhooksSection } from './webhook-doc';
import { WRITE_QUOTA_MESSAGE } from '../../src/access/quotas';
import { CROSS_SITE, HOST_BINDING, INACTIVE_DISTRIBUTOR, INPUT_ERRORS } from './documented-errors';

/*
 * The OpenAPI 3.1 documents of surfaces R and O, generated from the route rows at start: each
 * row's summary, parameters, body and `data` schema, the envelope around it, and the statuses
 * and messages of the row and of its surface. Rows sharing a method and path (R's two order
 * flows) become one operation whose body and `data` are one of theirs.
 */

export type Surface = 'R' | 'O';

const envelopeOk = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { isError: { const: false }, errorMsg: { type: ['string', 'null'], description: '`NA` on success' }, data },
  required: ['isError', 'errorMsg', 'data'],
});

const envelopeError: JsonSchema = {
  type: 'object',
  properties: {
    isError: { const: true },
    errorMsg: str('A human-readable message (see this response)'),
    data: { type: 'object', maxProperties: 0, description: '`{}` on error' },
  },
  required: ['isError', 'errorMsg', 'data'],
};

const STATUS_MEANING: Record<number, string> = {
  400: 'Malformed JSON, missing required field, invalid value or format',
  401: 'Missing, invalid, expired or revoked credentials',
  403: 'A cross-site browser request; or the hostname is not provisioned for a distributor, not bound, or the caller does not meet its binding; or the distributor is not active',
  429: 'Too many attempts, or the distributor spent its write quota; retry after `Retry-After` seconds',
  404: 'Referenced entity does not exist',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  422: 'Well formed but not processable',
  500: 'Unhandled server failure; retry with backoff',
  503: 'The database is gone or busy (retry after `Retry-After` seconds), or the supply-side platform is unreachable (retry with backoff)',
};

/** The statuses that say when to try again (src/common/errors.ts: `retryAfterSeconds`). */
const RETRY_AFTER: Record<number, { description: string; schema: JsonSchema }> = {
  429: { description: 'Seconds until the limit lets the request through', schema: { type: 'string', pattern: '^[0-9]+$' } },
  503: { description: 'Seconds to wait before retrying, when the database was away', schema: { type: 'string', pattern: '^[0-9]+$' } },
};

/** What every row of a kind answers besides its own documented failures. */
function commonErrors(route: RestRoute, idempotent: boolean): Record<number, string[]> {
  const errors: Record<number, string[]> = {
    400: ['malformed JSON body', 'request body must be a JSON object', 'credentials must not be sent in URL parameters (<name>)', ...INPUT_ERRORS],
    500: ['internal server error'],
    503: ['service temporarily unavailable'],
  };
  if (route.method === 'POST') {
    errors[400].push('request body must be sent as application/json');
    errors[413] = ['request body too large'];
  }
  // Any route: a browser's request from another site (rest-compat/cross-site.ts).
  errors[403] = [...CROSS_SITE];
  if (route.auth === 'host') errors[403].push('host <hostname> is not provisioned for any distributor', ...HOST_BINDING, INACTIVE_DISTRIBUTOR);
  if (route.auth === 'bearer') {
    errors[401] = ['missing bearer token', 'invalid access token', 'access token expired', 'access token revoked'];
    errors[403].push(INACTIVE_DISTRIBUTOR);
  }
  // A write of a distributor counts against its quota (src/access/quotas.ts).
  if (route.auth !== 'none' && isWrite(route)) errors[429] = [WRITE_QUOTA_MESSAGE];
  if (idempotent) {
    errors[400].push('Idempotency-Key must be 1 to 255 printable ASCII characters');
    errors[409] = ['a request with this Idempotency-Key is still being processed; retry later'];
    errors[422] = ['Idempotency-Key was already used with a different request'];
  }
  return errors;
}

const isWrite = (route: RestRoute) => route.document.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'mutation');

/** Express-style `/orders/:id` as OpenAPI's `/orders/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
/** OpenAPI's paths are the same whatever their parameters are named: `/orders/{}`. */
const pathShape = (path: string) => openApiPath(path).replace(/\{\w+\}/g, '{}');

function merge(into: Record<number, string[]>, from: Record<number, string[]> | undefined) {
  for (const [status, messages] of Object.entries(from ?? {})) {
    const list = (into[Number(status)] ??= []);
    for (const m of messages) if (!list.includes(m)) list.push(m);
  }
}

const oneOrAny = (schemas: JsonSchema[], key: 'oneOf' | 'anyOf'): JsonSchema => (schemas.length === 1 ? schemas[0] : { [key]: schemas });

/** One operation from the rows that share its method and path. */
function operation(rows: RestRoute[], surface: Surface): Record<string, unknown> {
  const [first] = rows;
  const docs: RouteDoc[] = rows.map((r) => r.doc);
  const idempotent = first.method === 'POST' && first.auth !== 'none';
  const errors = commonErrors(first, idempotent);
  for (const d of docs) merge(errors, d.errors);

  const parameters: Record<string, unknown>[] = [];
  const pathNames = (r: RestRoute) => [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  pathNames(first).forEach((name, i) => {
    // Rows of one path may name a parameter differently (`/orders/:orderId`, `/orders/:id`): one of theirs.
    const schemas = rows.map((r) => r.doc.params?.[pathNames(r)[i]] ?? str());
    parameters.push({ name, in: 'path', required: true, schema: oneOrAny([...new Map(schemas.map((x) => [JSON.stringify(x), x])).values()], 'anyOf') });
  });
  const queryNames = [...new Set(docs.flatMap((d) => Object.keys(d.query ?? {})))];
  for (const name of queryNames) {
    const { required, ...schema } = docs.map((d) => d.query?.[name]).find(Boolean)!;
    parameters.push({ name, in: 'query', required: required === true, schema, ...(schema.description ? { description: schema.description } : {}) });
  }
  if (idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the same key with the same request within 24 hours replays the first answer (with `Idempotent-Replayed: true`); the same key with another request answers 422, and while the first is still running 409',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (first.auth !== 'none' && first.method === 'POST') {
    parameters.push({
      name: 'x-actor',
      in: 'header',
      required: false,
      description: `Stamps createdBy/updatedBy (default \`${first.auth === 'host' ? 'Network' : 'system'}\`)`,
      schema: { type: 'string' },
    });
  }

  const bodies = docs.map((d) => d.body).filter((b): b is JsonSchema => !!b);
  // Real responses recorded from the integration tests (`npm run openapi:examples`).
  const examples = EXAMPLES[`${surface} ${first.method} ${openApiPath(first.path)}`] ?? {};
  const example = (status: number) => (examples[String(status)] !== undefined ? { example: examples[String(status)] } : {});
  const responses: Record<string, unknown> = {
    200: {
      description: 'Success',
      ...(idempotent ? { headers: { 'Idempotent-Replayed': { description: '`true` on a replayed answer', schema: { type: 'string', enum: ['true'] } } } } : {}),
      content: {
        'application/json': {
          schema: envelopeOk(
            oneOrAny(
              docs.map((d) => d.data),
              'anyOf',
            ),
          ),
          ...example(200),
        },
      },
    },
  };
  for (const status of Object.keys(errors)
    .map(Number)
    .sort((a, b) => a - b)) {
    const messages = errors[status].map((m) => `\`${m}\``).join('; ');
    responses[status] = {
      description: `${STATUS_MEANING[status] ?? 'Error'}. errorMsg: ${messages}`,
      ...(RETRY_AFTER[status] ? { headers: { 'Retry-After': RETRY_AFTER[status] } } : {}),
      // The same list, machine-readable (`<name>` stands for a value): the contract check holds every answer to it.
      'x-errorMsg': errors[status],
      content: { 'application/json': { schema: envelopeError, ...example(status) } },
    };
  }
  return {
    operationId: `${surface}_${first.method.toLowerCase()}${pathShape(first.path)
      .replace(/\{\}/g, 'By')
      .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: docs.map((d) => d.summary).join(' / '),
    ...(docs.some((d) => d.description)
      ? {
          description: docs
            .map((d) => d.description)
            .filter(Boolean)
            .join('\n\n'),
        }
      : {}),
    ...(docs.some((d) => d.additive) ? { 'x-additive': true } : {}),
    tags: [tagOf(first.path)],
    ...(docs.find((d) => d.security)
      ? { security: docs.find((d) => d.security)!.security }
      : first.auth === 'bearer'
        ? { security: [{ bearer: [] }] }
        : first.auth === 'none'
          ? { security: [] }
          : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(bodies.length ? { requestBody: { required: true, content: { 'application/json': { schema: oneOrAny(bodies, 'oneOf') } } } } : {}),
    responses,
  };
}

function tagOf(path: string): string {
  const seg = path.split('/')[1] ?? '';
  return (
    {
      funds: 'share classes and NAVs',
      assets: 'share classes and NAVs',
      orders: 'orders',
      investor: 'investors',
      user: 'users',
      webhooks: 'webhooks',
      events: 'event feed',
      auth: 'authentication',
      transaction: 'holdings',
      health: 'health',
    }[seg] ?? seg
  );
}

/** The OpenAPI 3.1 document of one surface, from its route rows. */
export function openApiDocument(surface: Surface, routes: RestRoute[], serverUrl = REST_PREFIX): Record<string, unknown> {
  const groups = new Map<string, RestRoute[]>();
  for (const r of routes) {
    const key = `${r.method} ${pathShape(r.path)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const rows of groups.values()) {
    const path = openApiPath(rows[0].path);
    (paths[path] ??= {})[rows[0].method.toLowerCase()] = operation(rows, surface);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `Fund distribution gateway, surface ${surface}`,
      version: '1',
      description: [
        surface === 'R'
          ? 'Surface R: the calling distributor is the one its hostname is provisioned for (and, when bound, its source addresses or client certificate); no credential is sent.'
          : 'Surface O: `POST /auth/token` with the headers `x-api-key` and `x-api-secret` (security schemes `apiKey`, `apiSecret`), then `Authorization: Bearer <accessToken>` (scheme `bearer`) on every other call; `POST /auth/refresh` renews the pair.',
        'Every response is the envelope `{isError, errorMsg, data}`. Fields and endpoints marked `x-additive` go beyond the interface description; clients ignore unknown fields.',
        IDENTIFIER_RULE,
        '## Webhooks\n\nThe `webhooks` section lists every event type `POST /webhooks/register` accepts, with its payload.\n\n' + WEBHOOK_DELIVERY_DESCRIPTION,
      ].join('\n\n'),
    },
    servers: [{ url: serverUrl }],
    ...(surface === 'O' ? { components: { securitySchemes: SURFACE_O_SECURITY } } : {}),
    paths,
    webhooks: webhooksSection({ ...orderWebhooks(), ...walletRecoveryWebhooks(), ...distributionWebhooks(), ...holdingWebhooks(), ...navCorrectionWebhooks() }),
  };
}

/** How an id of one surface names the record of the other (src/common/ids.ts, `recordId`/`shownId`). */
const IDENTIFIER_RULE =
  '## Identifiers across surfaces\n\nA distributor is `PT######` on surface O and `DT######` on surface R, an investor (a user) `US######` on O and `IN######` on R: ' +
  'the same record under the same six digits (`US000042` is `IN000042`). Each surface accepts only its own form in requests and shows its own form in its answers; ' +
  "an order's events carry the ids of the surface the order was placed on, so surface O's event feed and webhooks show `IN…`/`DT…` (and two-step `OR######` order ids) for orders placed through surface R, " +
  'and `US…`/`PT…` (with `ord_…` order ids) for its own. `SC######` share classes are the same on both.';

/** Surface O's credentials: the api key pair for `POST /auth/token`, the access token for the rest. */
const SURFACE_O_SECURITY = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The `accessToken` of `POST /auth/token` (15 minutes)' },
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "The distributor's api key, sent with `x-api-secret` to `POST /auth/token` only" },
  apiSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-secret',
    description: "The distributor's api secret, sent with `x-api-key` to `POST /auth/token` only",
  },
};
