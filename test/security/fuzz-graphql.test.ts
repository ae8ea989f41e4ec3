import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  coerceInputValue,
  getNamedType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  isLeafType,
} from 'graphql';
import { CORPUS, type FuzzCase, fuzzWorld, OPERATION_NAMES, runConcurrently, WriteWatch } from '../support/fuzz';
import { subscribe } from '../support/subscriptions';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { httpRequest } from '../support/http';

/*
 * Fuzz of the GraphQL door (issue 10): every value of the corpus (test/support/fuzz.ts) into every
 * argument and every input-object field of every Query and Mutation field of the emitted schema,
 * called as ops (who may call them all). Whatever the value: no 5xx, well-formed GraphQL errors
 * (never INTERNAL_SERVER_ERROR), and a refused operation writes nothing. Values that break the
 * input rules are BAD_USER_INPUT wherever sent.
 */

describe('Fuzz: bad values into every GraphQL argument and input field', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
    await fuzzWorld(gw);
  });
  afterAll(() => gw.close());

  // Thousands of requests (both fuzz files: about a minute of CPU here); a machine shared with other suites needs the longer timeout.
  it('no 5xx, well-formed errors, nothing written when refused; hostile values are BAD_USER_INPUT', async () => {
    const schema = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));
    const token = await gw.opsToken();
    const failures: string[] = [];
    let cases = 0;
    let positions = 0;
    let rootFields = 0;
    const writes = await WriteWatch.start(gw);
    const roots = [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const;
    for (const [kind, root] of roots) {
      for (const field of Object.values(root!.getFields())) {
        rootFields++;
        const base = Object.fromEntries(field.args.filter((a) => isNonNullType(a.type)).map((a) => [a.name, placeholder(a.type)]));
        for (const { path: target, type } of inputPaths(field)) {
          positions++;
          const batch: FuzzCase[] = CORPUS.filter((bad) => passesGraphqlTypes(bad.json, type)).map((bad) => {
            const variables = JSON.parse(JSON.stringify(base));
            const raw = JSON.stringify({ query: operation(kind, field), variables: setAt(variables, target, '@@BAD@@') }).replace('"@@BAD@@"', bad.json);
            const what = `${kind} ${field.name} ${target.join('.')} = ${bad.label}`;
            return {
              what,
              send: async () => {
                const res = await httpRequest(gw.port, 'POST', '/graphql', { raw, headers: { authorization: `Bearer ${token}` } });
                const answer = `${what}: ${res.status} ${res.text.slice(0, 200)}`;
                const errors = res.body?.errors;
                const problems: string[] = [];
                if (res.status >= 500) problems.push(`5xx: ${answer}`);
                else if (
                  errors !== undefined &&
                  !(Array.isArray(errors) && errors.length && errors.every((e: any) => typeof e.message === 'string' && typeof e.extensions?.code === 'string'))
                ) {
                  problems.push(`malformed errors: ${answer}`);
                } else if (errors?.some((e: any) => e.extensions.code === 'INTERNAL_SERVER_ERROR')) problems.push(`internal error: ${answer}`);
                else if (errors === undefined && res.body?.data == null) problems.push(`neither data nor errors: ${answer}`);
                else if (bad.hostile && errors?.[0]?.extensions?.code !== 'BAD_USER_INPUT') problems.push(`hostile value not BAD_USER_INPUT: ${answer}`);
                return { refused: errors !== undefined, problems };
              },
            };
          });
          cases += batch.length;
          await runConcurrently(batch, writes, failures);
        }
      }
    }
    console.log(
      `GraphQL fuzz: ${CORPUS.length} values × ${positions} arguments and input fields of ${rootFields} root fields, less what GraphQL's types refuse = ${cases} requests`,
    );
    expect(failures).toEqual([]);
    expect(positions).toBeGreaterThan(100);
  }, 300_000);
});

describe('Fuzz: operation names and socket attempts (issue 19)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ config: { rateLimits: { authPerAddress: 5 } } });
  });
  afterAll(() => gw.close());

  const scrapeSeries = async () =>
    (await httpRequest(gw.port, 'GET', '/metrics')).text.split('\n').filter((l) => l.startsWith('gateway_graphql_operation_duration_seconds')).length;

  it('every operationName against one, two and no operations: 200 or 400 with well-formed errors, never 5xx; /metrics does not grow', async () => {
    const documents = [
      'query Health { health { status } }',
      'query A { health { status } } query B { health { status } }',
      'subscription S { orderUpdated { eventId } }',
      'fragment F on Query { health { status } }',
    ];
    // warm every label the fixed set can take for these documents
    for (const query of documents) {
      for (const operationName of ['Health', null, 'S']) await httpRequest(gw.port, 'POST', '/graphql', { raw: JSON.stringify({ query, operationName }) });
    }
    const before = await scrapeSeries();
    const failures: string[] = [];
    await Promise.all(
      documents.flatMap((query) =>
        OPERATION_NAMES.map(async (name) => {
          const raw = `{"query":${JSON.stringify(query)},"operationName":${name}}`;
          const res = await httpRequest(gw.port, 'POST', '/graphql', { raw });
          const answer = `${query.slice(0, 30)} operationName=${name.slice(0, 40)}: ${res.status} ${res.text.slice(0, 160)}`;
          const errors = res.body?.errors;
          if (res.status >= 500) failures.push(`5xx: ${answer}`);
          else if (res.status !== 200 && res.status !== 400) failures.push(`status: ${answer}`);
          else if (
            errors !== undefined &&
            !(
              Array.isArray(errors) &&
              errors.every((e: any) => typeof e.message === 'string' && typeof e.extensions?.code === 'string' && e.extensions.code !== 'INTERNAL_SERVER_ERROR')
            )
          )
            failures.push(`errors: ${answer}`);
        }),
      ),
    );
    expect(failures).toEqual([]);
    expect(await scrapeSeries()).toBe(before);
  }, 120_000);

  it("over one socket, every corpus string as an API key: refused as a credential until the address's limit, then RATE_LIMITED; never an internal error", async () => {
    const socket = await subscribe(gw.port, 'subscription { orderUpdated { eventId } }', {}, await gw.opsToken());
    const keys = CORPUS.map((bad) => JSON.parse(bad.json) as unknown).filter((v): v is string => typeof v === 'string');
    const codes: string[] = [];
    const messages: string[] = [];
    try {
      for (const key of keys) {
        const result = await new Promise<any>((resolve) => {
          let last: any;
          socket.client.subscribe(
            { query: 'mutation ($k: String) { issueAccessToken(apiKey: $k, apiSecret: "sk_wrong") { accessToken } }', variables: { k: key } },
            {
              next: (m) => (last = m),
              error: (e) => resolve({ errors: e }),
              complete: () => resolve(last),
            },
          );
        });
        codes.push(Array.isArray(result?.errors) ? result.errors[0]?.extensions?.code : 'NONE');
        messages.push(Array.isArray(result?.errors) ? result.errors[0]?.message : '');
      }
    } finally {
      await socket.close();
    }
    expect(codes).not.toContain('INTERNAL_SERVER_ERROR');
    expect(codes).not.toContain('NONE');
    // counted against 127.0.0.1: five attempts reach the credential check, every later one is refused
    // (a blank key is refused as missing before it is counted)
    const checked = messages.filter((m) => m === 'invalid api key or secret');
    expect(checked).toHaveLength(5);
    const firstRefusal = codes.indexOf('RATE_LIMITED');
    expect(firstRefusal).toBeGreaterThan(0);
    expect(messages.slice(firstRefusal).filter((m) => m === 'invalid api key or secret')).toEqual([]);
    expect(codes.filter((c) => c === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(5);
  }, 120_000);
});

/** A valid-looking value of a required input type: what the fuzzed field's siblings carry. */
function placeholder(type: GraphQLInputType, depth = 0): unknown {
  if (isNonNullType(type)) return placeholder(type.ofType, depth);
  if (isListType(type)) return [placeholder(type.ofType, depth)];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    if (depth > 4) return out;
    for (const f of Object.values(type.getFields())) if (isNonNullType(f.type) && f.defaultValue === undefined) out[f.name] = placeholder(f.type, depth + 1);
    return out;
  }
  const scalars: Record<string, unknown> = { String: 'x', ID: 'x', Int: 1, Float: 1, Boolean: false, Decimal: '1', EpochMs: 0, JSONObject: {} };
  return isScalarType(type) ? (scalars[type.name] ?? 'x') : null;
}

/** Every argument and, inside input objects (and their lists), every input field, as variable paths. */
function inputPaths(field: GraphQLField<unknown, unknown>): { path: string[]; type: GraphQLInputType }[] {
  const out: { path: string[]; type: GraphQLInputType }[] = [];
  const walk = (type: GraphQLInputType, path: string[], depth: number) => {
    out.push({ path, type });
    const named = getNamedType(type);
    if (!isInputObjectType(named) || depth > 3) return;
    const inList = isListType(isNonNullType(type) ? type.ofType : type);
    for (const f of Object.values(named.getFields())) walk(f.type, inList ? [...path, '0', f.name] : [...path, f.name], depth + 1);
  };
  for (const arg of field.args) walk(arg.type, [arg.name], 0);
  return out;
}

/**
 * False when GraphQL's own type rules refuse the value at a position of this type (a number for a
 * String, a string for an Int or an input object …): graphql-js answers those before any code of
 * the gateway runs, so sending each of them to each of hundreds of positions would only slow the
 * test. The emitted SDL's custom scalars (Decimal, EpochMs) accept anything here, so every value
 * still reaches the gateway's own scalars.
 */
function passesGraphqlTypes(json: string, type: GraphQLInputType): boolean {
  let passes = true;
  coerceInputValue(JSON.parse(json), type, () => {
    passes = false;
  });
  return passes;
}

/** One root field with every argument as a variable, selecting `__typename` of an object result. */
function operation(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>): string {
  const defs = field.args.map((a: GraphQLArgument) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`;
}

/** `obj` with `value` at `path`, creating objects and lists on the way. */
function setAt(obj: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  let at: any = obj;
  path.forEach((key, i) => {
    if (i === path.length - 1) at[key] = value;
    else {
      at[key] ??= path[i + 1] === '0' ? [{}] : {};
      if (Array.isArray(at[key]) && at[key].length === 0) at[key].push({});
      at = at[key];
    }
  });
  return obj;
}
