import type { RestRoute } from '../../rest-compat/route';
import { SURFACE_O } from '../../rest-compat/surface-o';
import { SURFACE_R } from '../../rest-compat/surface-r';
import { baseValue, CORPUS, type FuzzCase, fuzzWorld, HEADER_VALUES, PATH_BASE, runConcurrently, WriteWatch, type World } from '../support/fuzz';
import { startTestGateway, type TestGateway } from '../support/gateway';

/*
 * Fuzz of the REST facade (issue 10): every value of the corpus (test/support/fuzz.ts) into every
 * path parameter, query parameter and body field of every route of both route tables, so a new
 * route is covered without touching this file. Whatever the value: no 5xx, a well-formed
 * envelope, and a refused request writes nothing. Values that break the input rules (control
 * characters, oversize strings and numbers, broken Unicode, deep nesting) are 400 wherever sent.
 */

/** The query parameters and body fields a route reads, found by running its variable mapping on recording objects. */
function fieldsOf(route: RestRoute): { path: string[]; query: string[]; body: string[] } {
  const path = route.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  const query = new Set<string>();
  const body = new Set<string>();
  const recorder = (into: Set<string>) => {
    const note = (key: string | symbol) => typeof key === 'string' && !['then', 'toJSON', 'constructor'].includes(key) && into.add(key);
    return new Proxy(
      {},
      {
        get: (_t, key) => void note(key),
        has: (_t, key) => (note(key), false),
        getOwnPropertyDescriptor: (_t, key) => void note(key),
      },
    );
  };
  const req = { params: Object.fromEntries(path.map((k) => [k, PATH_BASE[k] ?? 'x'])), query: recorder(query), body: recorder(body), headers: {} };
  for (const run of [() => route.when?.(req), () => route.variables(req)]) {
    try {
      run();
    } catch {
      /* reading is what we watch; a mapping that refuses the probe has read its fields already */
    }
  }
  return { path, query: [...query], body: [...body] };
}

const isEnvelope = (body: any) =>
  body !== null &&
  typeof body === 'object' &&
  typeof body.isError === 'boolean' &&
  typeof body.errorMsg === 'string' &&
  body.errorMsg.length > 0 &&
  body.data !== null &&
  typeof body.data === 'object' &&
  (body.isError ? Object.keys(body.data).length === 0 && body.errorMsg !== 'NA' : body.errorMsg === 'NA');

describe('Fuzz: bad values into every field of every REST route', () => {
  let gw: TestGateway;
  let world: World;
  beforeAll(async () => {
    gw = await startTestGateway();
    world = await fuzzWorld(gw);
  });
  afterAll(() => gw.close());

  // Thousands of requests (both fuzz files: about a minute of CPU here); a machine shared with other suites needs the longer timeout.
  it('no 5xx, a valid envelope, nothing written when refused; hostile values are 400', async () => {
    const failures: string[] = [];
    let cases = 0;
    let fields = 0;
    const routes = [...SURFACE_R.map((r) => ['R', r] as const), ...SURFACE_O.map((r) => ['O', r] as const)];
    const writes = await WriteWatch.start(gw);
    for (const [surface, route] of routes) {
      const { path, query, body } = fieldsOf(route);
      const positions = [...path.map((f) => ['path', f] as const), ...query.map((f) => ['query', f] as const), ...body.map((f) => ['body', f] as const)];
      fields += positions.length;
      for (const [where, field] of positions) {
        const batch: FuzzCase[] = [];
        for (const bad of CORPUS) {
          if (where !== 'body' && bad.url === null) continue;
          const url = route.path.replace(/:(\w+)/g, (_, k: string) => encode(where === 'path' && k === field ? bad.url! : (PATH_BASE[k] ?? 'x')));
          const params = query.filter((q) => q !== field || where !== 'query').map((q) => `${q}=${encode(String(baseValue(q, world, surface)))}`);
          if (where === 'query') params.push(`${field}=${encode(bad.url!)}`);
          const target = params.length ? `${url}?${params.join('&')}` : url;
          const fieldsJson = body.map(
            (b) => `${JSON.stringify(b)}:${b === field && where === 'body' ? bad.json : JSON.stringify(baseValue(b, world, surface))}`,
          );
          const raw = route.method === 'POST' || body.length ? `{${fieldsJson.join(',')}}` : undefined;
          const what = `${surface} ${route.method} ${route.path} ${where} ${field} = ${bad.label}`;
          batch.push({
            what,
            send: async () => {
              const res = await gw.api(route.method, target, { host: world.hostR, headers: surface === 'O' ? world.bearer : {}, raw });
              const answer = `${what}: ${res.status} ${res.text.slice(0, 160)}`;
              const problems: string[] = [];
              if (res.status >= 500) problems.push(`5xx: ${answer}`);
              else if (!isEnvelope(res.body)) problems.push(`not an envelope: ${answer}`);
              else if (bad.hostile && !(bad.bodyOnly && where !== 'body') && res.status !== 400) problems.push(`hostile value not refused with 400: ${answer}`);
              return { refused: res.status !== 200, problems };
            },
          });
        }
        cases += batch.length;
        await runConcurrently(batch, writes, failures);
      }
    }

    console.log(`REST fuzz: ${CORPUS.length} values × ${fields} fields of ${routes.length} routes = ${cases} requests`);
    expect(failures).toEqual([]);
    expect(fields).toBeGreaterThan(40);
  }, 300_000);
});

describe('Fuzz: hostile Origin, Sec-Fetch-Site, X-Forwarded-Host and Host values on every REST route (issue 19)', () => {
  let gw: TestGateway;
  let world: World;
  beforeAll(async () => {
    // loopback peers are trusted proxies: a forwarded host would be believed if anything read it
    gw = await startTestGateway({ config: { trustProxy: ['127.0.0.1'] } });
    world = await fuzzWorld(gw);
  });
  afterAll(() => gw.close());

  it('Origin and Sec-Fetch-Site: every value but same-origin/none is 403 before the route runs; X-Forwarded-Host never changes the answer; Host never 5xx', async () => {
    const failures: string[] = [];
    const writes = await WriteWatch.start(gw);
    const routes = [...SURFACE_R.map((r) => ['R', r] as const), ...SURFACE_O.map((r) => ['O', r] as const)];
    let cases = 0;
    for (const [surface, route] of routes) {
      const url = route.path.replace(/:(\w+)/g, (_, k: string) => encode(PATH_BASE[k] ?? 'x'));
      const raw = route.method === 'POST' ? '{}' : undefined;
      const send = (headers: Record<string, string>, host = world.hostR) =>
        gw.api(route.method, url, { host, headers: { ...(surface === 'O' ? world.bearer : {}), ...headers }, raw });
      // the answer without any of these headers: what X-Forwarded-Host must not change (GET only: a write's second answer differs)
      const baseline = route.method === 'GET' ? (await send({})).status : null;
      const batch: FuzzCase[] = [];
      for (const value of HEADER_VALUES) {
        const what = (header: string) => `${surface} ${route.method} ${route.path} ${header}: ${JSON.stringify(value.slice(0, 60))}`;
        const check = (header: string, expected: (status: number) => boolean, headers: Record<string, string>, host?: string): FuzzCase => ({
          what: what(header),
          send: async () => {
            const res = await send(headers, host);
            const answer = `${what(header)}: ${res.status} ${res.text.slice(0, 160)}`;
            const problems: string[] = [];
            if (res.status >= 500) problems.push(`5xx: ${answer}`);
            else if (!isEnvelope(res.body)) problems.push(`not an envelope: ${answer}`);
            else if (!expected(res.status)) problems.push(`unexpected status: ${answer}`);
            return { refused: res.status !== 200, problems };
          },
        });
        batch.push(check('origin', (st) => st === 403, { origin: value }));
        const firstParty = ['same-origin', 'none'].includes(value.trim().toLowerCase());
        if (!firstParty && value.trim() !== '') batch.push(check('sec-fetch-site', (st) => st === 403, { 'sec-fetch-site': value }));
        if (baseline !== null)
          batch.push(check('x-forwarded-host', (st) => st === baseline, { 'x-forwarded-host': value, forwarded: `host="${value.replace(/"/g, '')}"` }));
        if (surface === 'R' && value.trim() !== '') batch.push(check('host', (st) => st < 500, {}, value));
      }
      cases += batch.length;
      await runConcurrently(batch, writes, failures);
    }

    console.log(
      `REST header fuzz: ${HEADER_VALUES.length} values × Origin, Sec-Fetch-Site, X-Forwarded-Host, Host on ${routes.length} routes = ${cases} requests`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});

/** Encodes a URL segment; a lone surrogate (which encodeURIComponent refuses) goes as its broken UTF-8. */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}
