import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { SURFACE_O } from '../../rest-compat/surface-o';
import { SURFACE_R } from '../../rest-compat/surface-r';
import { openApiPath } from '../../rest-compat/openapi/document';
import { MODULE_PARTS } from '../../src/modules/manifests';
import { httpRequest } from '../support/http';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * The OpenAPI documents are generated from the route rows and served without credentials; they
 * pass an OpenAPI 3.1 validator. (Every response of the integration tests is also validated
 * against them: test/support/contract.ts.)
 */
/**
 * @seriousme/openapi-schema-validator (the OpenAPI 3.1 JSON Schemas) is an ES module, which this
 * CommonJS test cannot load: it runs in a child process over the document.
 */
function validateOpenApi(doc: unknown): { valid: boolean; errors?: unknown } {
  const script = `import { Validator } from '@seriousme/openapi-schema-validator';
    import { readFileSync } from 'node:fs';
    const result = await new Validator().validate(JSON.parse(readFileSync(0, 'utf8')));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: join(__dirname, '..', '..'),
    input: JSON.stringify(doc),
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`validator failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('OpenAPI reference', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.close());

  const fetchDoc = (surface: 'r' | 'o') => httpRequest(gw.port, 'GET', `/api/v1/openapi-${surface}.json`, { host: 'unmapped.example' });

  it.each([
    ['r', SURFACE_R],
    ['o', SURFACE_O],
  ] as const)('/api/v1/openapi-%s.json is a valid OpenAPI 3.1 document with an operation for every route row', async (surface, rows) => {
    // when: no credentials, an unprovisioned host
    const res = await fetchDoc(surface);
    // then
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const result = validateOpenApi(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const row of rows) {
      const samePath = Object.keys(doc.paths).find((p) => p.replace(/\{\w+\}/g, '{}') === openApiPath(row.path).replace(/\{\w+\}/g, '{}'));
      expect(samePath && doc.paths[samePath][row.method.toLowerCase()]).toBeTruthy();
    }
  });

  it('documents the envelope, the statuses and messages, Idempotency-Key on POSTs, and marks additive fields', async () => {
    const r = (await fetchDoc('r')).body;
    const subscribe = r.paths['/orders/subscribe'].post;
    // both R flows: one operation whose body is one of theirs
    expect(subscribe.requestBody.content['application/json'].schema.oneOf).toHaveLength(2);
    expect(Object.keys(subscribe.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '404', '409', '413', '422', '500', '503']));
    expect(subscribe.responses['409'].description).toContain('Investor not granted access to <shareClassId>');
    expect(subscribe.responses['409'].description).toContain('a request with this Idempotency-Key is still being processed; retry later');
    expect(subscribe.parameters.map((p: any) => p.name)).toContain('Idempotency-Key');
    expect(subscribe.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
    const envelope = subscribe.responses['404'].content['application/json'].schema;
    expect(envelope.required).toEqual(['isError', 'errorMsg', 'data']);
    const shareClass = r.paths['/funds/shareclass/{shareClassId}'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(shareClass.properties.shareClassId['x-additive']).toBe(true);
    expect(shareClass.properties.fundId['x-additive']).toBeUndefined();
    expect(r.paths['/events'].get['x-additive']).toBe(true);
    const o = (await fetchDoc('o')).body;
    expect(o.paths['/orders/subscribe'].post.security).toEqual([{ bearer: [] }]);
    expect(o.paths['/orders/subscribe'].post.responses['401'].description).toContain('invalid access token');
    expect(o.paths['/auth/token'].post.security).toEqual([{ apiKey: [], apiSecret: [] }]);
  });

  it('states what a distributor needs without the repository: security schemes, the id rule, every webhook with its signature; links to no unserved page', async () => {
    const [r, o] = [(await fetchDoc('r')).body, (await fetchDoc('o')).body];
    expect(o.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      apiSecret: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-secret' }),
    });
    for (const doc of [r, o]) {
      expect(doc.info.description).toContain('`US000042` is `IN000042`');
      expect(Object.keys(doc.webhooks)).toEqual([...MODULE_PARTS.webhookEvents.types]);
      expect(Object.keys(doc.webhooks).slice(0, 4)).toEqual(['order.accepted', 'order.rejected', 'token.transfer_completed', 'token.transfer_failed']);
      for (const [type, hook] of Object.entries<any>(doc.webhooks)) {
        const schema = hook.post.requestBody.content['application/json'].schema;
        expect({ type, event_type: schema.properties.event_type, data: schema.properties.data.type }).toEqual({
          type,
          event_type: { const: type },
          data: 'object',
        });
        expect(hook.post.parameters.map((p: any) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
        for (const words of [
          'HMAC-SHA256',
          '<webhook-id>.<webhook-timestamp>.<raw body>',
          'whsec_',
          'de-duplicate by it',
          '5 minutes',
          'Secret rotation',
          'WEBHOOK_ALLOWED_HOSTS',
          'WEBHOOK_CA_FILE',
        ])
          expect(hook.post.description).toContain(words);
        expect(hook.post.description).toContain('immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h');
      }
      // The gateway serves no docs/ folder: the documents do not send a reader there.
      expect(JSON.stringify(doc)).not.toMatch(/docs\/[a-z-]+\.md/);
    }
    expect(o.paths['/webhooks/test'].post.security).toEqual([{ bearer: [] }]);
  });

  it('/docs serves the interactive reference page and its Redoc bundle locally', async () => {
    const page = await httpRequest(gw.port, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('spec-url="/api/v1/openapi-r.json"');
    expect(page.text).toContain('src="/docs/assets/redoc.standalone.js"');
    expect((await httpRequest(gw.port, 'GET', '/docs?surface=o')).text).toContain('spec-url="/api/v1/openapi-o.json"');
    const bundle = await httpRequest(gw.port, 'GET', '/docs/assets/redoc.standalone.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(bundle.text.length).toBeGreaterThan(100_000);
  });
});
