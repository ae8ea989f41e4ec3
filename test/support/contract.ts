import { appendFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { openApiDocument } from '../../rest-compat/openapi/document';
import { SURFACE_O } from '../../rest-compat/surface-o';
import { SURFACE_R } from '../../rest-compat/surface-r';
import type { HttpResponse, RequestOptions } from './http';

/*
 * Every REST response of the integration tests is checked against the OpenAPI documents the
 * gateway serves (generated from the same route rows): a status the operation does not document,
 * or a body its schema refuses, fails the test that made the request.
 */

interface Operation {
  /** `R GET /orders/{orderId}`: where its examples are filed (rest-compat/openapi/examples.ts). */
  key: string;
  pattern: RegExp;
  responses: Record<string, { 'x-errorMsg'?: string[]; content?: { 'application/json'?: { schema: object } } }>;
}

type Surface = 'R' | 'O';
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new WeakMap<object, ValidateFunction>();
let generic: ValidateFunction | null = null;
let operations: Record<Surface, Map<string, Operation[]>> | null = null;

function load(): Record<Surface, Map<string, Operation[]>> {
  const out = { R: new Map<string, Operation[]>(), O: new Map<string, Operation[]>() };
  for (const [surface, routes] of [
    ['R', SURFACE_R],
    ['O', SURFACE_O],
  ] as const) {
    const doc = openApiDocument(surface, routes) as { paths: Record<string, Record<string, Operation>> };
    for (const [path, methods] of Object.entries(doc.paths)) {
      const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}/?$`);
      for (const [method, op] of Object.entries(methods)) {
        const list = out[surface].get(method.toUpperCase()) ?? [];
        list.push({ key: `${surface} ${method.toUpperCase()} ${path}`, pattern, responses: op.responses });
        out[surface].set(method.toUpperCase(), list);
      }
    }
  }
  return out;
}

function find(surface: Surface, method: string, path: string): Operation | undefined {
  operations ??= load();
  return operations[surface].get(method)?.find((op) => op.pattern.test(path));
}

const GENERIC_ENVELOPE = {
  type: 'object',
  properties: { isError: { type: 'boolean' }, errorMsg: { type: ['string', 'null'] }, data: {} },
  required: ['isError', 'errorMsg', 'data'],
};

/**
 * The schema as the check reads it: every object that lists its properties is closed
 * (`unevaluatedProperties: false`), so a field the document does not declare fails the test like
 * a missing one. The served documents stay open (clients ignore unknown fields); the gateway's own
 * answers may carry only what they declare.
 */
export function closedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === 'example' || k === 'examples' || k === 'const' || k === 'enum' ? v : closedSchema(v);
  if (out.properties && typeof out.properties === 'object' && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) {
    out.unevaluatedProperties = false;
  }
  return out;
}

function validatorFor(schema: object): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    v = ajv.compile(closedSchema(schema) as object);
    validators.set(schema, v);
  }
  return v;
}

/** Throws when the response drifts from the document of the surface the request reached. */
export function assertMatchesContract(method: string, pathAndQuery: string, opts: RequestOptions | undefined, res: HttpResponse): void {
  const path = pathAndQuery.split('?')[0];
  const headers = Object.fromEntries(Object.entries(opts?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const bearer = /^bearer/i.test(headers.authorization ?? '');
  // As the router decides: a bearer token is surface O; without one, R, then O's own paths.
  const op = bearer ? find('O', method, path) : (find('R', method, path) ?? find('O', method, path));
  const where = `${method} /api/v1${pathAndQuery} → ${res.status}`;
  if (!op) {
    // No operation (an unknown path): still the envelope.
    generic ??= ajv.compile(GENERIC_ENVELOPE);
    if (!generic(res.body)) throw new Error(`${where}: not an envelope: ${res.text.slice(0, 300)}`);
    return;
  }
  const response = op.responses[String(res.status)];
  if (!response)
    throw new Error(`${where}: status not documented for this operation (${Object.keys(op.responses).join(', ')}); body ${res.text.slice(0, 300)}`);
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return;
  const validate = validatorFor(schema);
  if (!validate(res.body)) {
    throw new Error(`${where}: response drifts from the OpenAPI document: ${driftText(validate)}\nbody: ${res.text.slice(0, 600)}`);
  }
  const documented = response['x-errorMsg'];
  const message = (res.body as { errorMsg?: unknown } | null)?.errorMsg;
  if (documented && typeof message === 'string' && !documented.some((d) => messagePattern(d).test(message))) {
    throw new Error(
      `${where}: errorMsg ${JSON.stringify(message)} is not among the documented ones of this operation and status: ${JSON.stringify(documented)}`,
    );
  }
  recordExample(op.key, res);
}

/** Ajv's errors, each once, an undeclared field named (`data/x: undeclared field y`). */
function driftText(validate: ValidateFunction): string {
  const lines = (validate.errors ?? []).map((e) =>
    e.keyword === 'unevaluatedProperties'
      ? `${e.instancePath || '/'}: undeclared field ${String((e.params as { unevaluatedProperty?: string }).unevaluatedProperty)}`
      : `${e.instancePath || '/'} ${e.message ?? e.keyword}`,
  );
  return [...new Set(lines)].join('; ');
}

/** A documented message as a pattern: `<name>` stands for any value. */
function messagePattern(documented: string): RegExp {
  const parts = documented.split(/<[^<>]+>/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`, 's');
}

const recorded = new Set<string>();

/**
 * With OPENAPI_EXAMPLES_FILE set (`npm run openapi:examples`), the first valid answer of each
 * operation and status is appended there: the documents' examples are real responses.
 */
function recordExample(key: string, res: HttpResponse): void {
  const file = process.env.OPENAPI_EXAMPLES_FILE;
  const id = `${key} ${res.status}`;
  if (!file || recorded.has(id)) return;
  recorded.add(id);
  appendFileSync(file, `${JSON.stringify({ key, status: res.status, body: res.body })}\n`);
}

let webhookSchemas: Map<string, ValidateFunction> | null = null;

/**
 * Throws when a webhook body drifts from its event type's payload in the documents' `webhooks`
 * section (both surfaces document the same deliveries): an undeclared field fails as a missing one.
 */
export function assertWebhookMatchesContract(body: string): void {
  if (!webhookSchemas) {
    webhookSchemas = new Map();
    const doc = openApiDocument('O', SURFACE_O) as {
      webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: object } } } } }>;
    };
    for (const [type, hook] of Object.entries(doc.webhooks))
      webhookSchemas.set(type, ajv.compile(closedSchema(hook.post.requestBody.content['application/json'].schema) as object));
  }
  const parsed: unknown = JSON.parse(body);
  const type = String((parsed as { event_type?: unknown }).event_type);
  const validate = webhookSchemas.get(type);
  if (!validate) throw new Error(`webhook event_type ${type} is not in the documents' webhooks section`);
  if (!validate(parsed)) throw new Error(`webhook ${type} drifts from the OpenAPI document: ${driftText(validate)}\nbody: ${body.slice(0, 600)}`);
}
