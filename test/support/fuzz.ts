import { alias } from './ids';
import { bearerOf } from './auth.factories';
import { aMarket } from './factories';
import type { TestGateway } from './gateway';

/*
 * The fuzz corpus of issue 10 and what both fuzz tests (test/security/fuzz-*.test.ts) share:
 * a world to aim at and the row counts that show a refused request wrote nothing.
 */

export interface Bad {
  label: string;
  /** The value as JSON text (so `1e400` can be sent as is). */
  json: string;
  /** The value in a URL (path or query), or null where a URL cannot carry it. */
  url: string | null;
  /** Must be refused with 400 wherever it is sent (in a URL too, unless `bodyOnly`). */
  hostile?: boolean;
  bodyOnly?: boolean;
}

const str = (label: string, s: string, hostile = false): Bad => ({ label, json: JSON.stringify(s), url: s, hostile });
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

export const CORPUS: Bad[] = [
  str('NUL', '\u0000', true),
  str('NUL inside an id', 'OR\u0000001', true),
  str('ESC sequence', '\u001b[31mred', true),
  str('BEL and DEL', 'a\u0007b\u007f', true),
  str('C1 control', 'a\u0085b', true),
  str('oversize string', 'x'.repeat(5000), true),
  { label: 'lone surrogate', json: '"\\ud800x"', url: null, hostile: true },
  str('percent-encoded NUL as text', '%00'),
  str('bidi override', '\u202eevil'),
  str('zero-width and BOM', '\u200b\ufeff'),
  str('emoji', '😀😀😀'),
  str('SQL injection', "' OR 1=1 --"),
  str('SQL statement', '"; DROP TABLE "order"; --'),
  str('JSON operator injection', '{"$gt":""}'),
  str('__proto__', '__proto__'),
  str('epoch beyond any date (text)', '9000000000000000'),
  str('exponent (text)', '1e400'),
  str('empty', ''),
  str('blank', '   '),
  { label: 'epoch beyond any date (number)', json: '9000000000000000', url: '9000000000000000' },
  { label: 'negative number', json: '-1', url: '-1' },
  { label: 'fraction', json: '0.000000000000000000001', url: '0.000000000000000000001' },
  { label: 'infinite number', json: '1e400', url: null, hostile: true, bodyOnly: true },
  { label: 'number beyond the decimal columns', json: '123456789012345678901234567890', url: null, hostile: true, bodyOnly: true },
  { label: 'boolean', json: 'true', url: 'true' },
  { label: 'null', json: 'null', url: null },
  { label: 'array', json: '["a","b"]', url: null },
  { label: 'object', json: '{"a":{"b":1}}', url: null },
  { label: 'nesting too deep', json: nested(40), url: null, hostile: true, bodyOnly: true },
];

/**
 * Header values of issue 19 (Origin, Sec-Fetch-Site, X-Forwarded-Host, Host): the corpus strings a
 * header can carry (HTTP forbids control characters and text beyond Latin-1 there), and values
 * that try to name another tenant or origin.
 */
export const HEADER_VALUES: string[] = [
  ...CORPUS.map((bad) => JSON.parse(bad.json) as unknown).filter((v): v is string => typeof v === 'string' && /^[\t\x20-\x7e]*$/.test(v)),
  'null',
  'https://evil.example',
  'https://dist-a.test@evil.example',
  'https://dist-a.test.evil.example',
  'dist-b.test',
  'dist-b.test, dist-a.test',
  'DIST-B.TEST:443',
  '[::1]:4000',
  'cross-site',
  'same-site',
  'Same-Origin',
];

/** operationName values: every corpus value as JSON, and names the document does not hold. */
export const OPERATION_NAMES: string[] = [...CORPUS.map((bad) => bad.json), '"B"', '"__proto__"', `"${'N'.repeat(4000)}"`, '"Health"'];

/** Valid-looking values of the fields routes read, so a bad value in one field meets real checks. */
export function baseValue(field: string, ctx: World, surface: 'R' | 'O'): unknown {
  const ids: Record<string, string> = {
    distributorId: surface === 'O' ? alias(ctx.distributorId, 'PT') : ctx.distributorId,
    investorId: ctx.investorId,
    userId: alias(ctx.investorId, 'US'),
    shareClassId: ctx.shareClassId,
  };
  if (field in ids) return ids[field];
  const known: Record<string, unknown> = {
    amount: 100,
    amountSubscription: 100,
    tokenCount: 1,
    email: 'ada@example.com',
    name: 'Ada',
    currency: 'USD',
    event_type: 'order.accepted',
    endpoint_url: 'https://93.184.215.14/hook',
    webhook_id: 'wh_missing',
    startDate: '0',
    endDate: '1',
  };
  return known[field] ?? 'x';
}

/** Path parameters get ids that are well formed but missing: nothing is pushed or delivered for real. */
export const PATH_BASE: Record<string, string> = {
  shareClassId: 'SC999999',
  orderId: 'OR999999',
  id: 'OR999999',
  investorId: 'IN999999',
  distributorId: 'DT999999',
  userId: 'US999999',
};

export interface World {
  distributorId: string;
  investorId: string;
  shareClassId: string;
  hostR: string;
  bearer: Record<string, string>;
}

/** A distributor on surface R (`hostR`) and O (`bearer`) with an investor and a share class it sells. */
export async function fuzzWorld(gw: TestGateway): Promise<World> {
  const now = new Date(Date.UTC(2030, 0, 2, 12));
  gw.clock.set(now);
  const m = await aMarket(gw.em(), now);
  return {
    distributorId: m.distributor.id,
    investorId: m.investor.id,
    shareClassId: m.shareClass.id,
    hostR: m.hostA,
    bearer: await bearerOf(gw, m.distributor),
  };
}

/**
 * Watches whether rows were added or removed. Counting every table after each of thousands of
 * requests is slow, so the count is taken only when a transaction that may write has ended since
 * the last look: PostgreSQL gives a transaction id only to transactions that write, and the
 * snapshot's xmax moves past each one as it ends.
 */
export class WriteWatch {
  private constructor(
    private readonly gw: TestGateway,
    private xmax: string,
    private counts: string,
  ) {}

  static async start(gw: TestGateway): Promise<WriteWatch> {
    return new WriteWatch(gw, await xmaxOf(gw), await rowCounts(gw));
  }

  /** True when the row count of some table changed since the last call. */
  async changed(): Promise<boolean> {
    const xmax = await xmaxOf(this.gw);
    if (xmax === this.xmax) return false;
    this.xmax = xmax;
    const counts = await rowCounts(this.gw);
    const changed = counts !== this.counts;
    this.counts = counts;
    return changed;
  }
}

async function xmaxOf(gw: TestGateway): Promise<string> {
  const [row] = await gw.em().getConnection().execute('select pg_snapshot_xmax(pg_current_snapshot())::text as xmax');
  return row.xmax;
}

/** Tables a refused request writes to by design: the audit log records every ops mutation, refused ones too (docs/approvals.md). */
const RECORDS_REFUSALS = new Set(['audit_log']);

/** Row counts of every table but RECORDS_REFUSALS, in one statement, as JSON text. */
async function rowCounts(gw: TestGateway): Promise<string> {
  const tables = Object.values(gw.db.orm.getMetadata().getAll())
    .filter((m) => !m.embeddable && m.tableName && !RECORDS_REFUSALS.has(m.tableName))
    .map((m) => m.tableName);
  const sql = `select json_build_object(${tables.map((t) => `'${t}', (select count(*) from "${t}")`).join(', ')})::text as counts`;
  const [row] = await gw.em().getConnection().execute(sql);
  return row.counts;
}

/** One fuzz request: sends itself and tells whether it was refused and what (if anything) is wrong with the answer. */
export interface FuzzCase {
  what: string;
  send(): Promise<{ refused: boolean; problems: string[] }>;
}

/**
 * Sends one field's cases at once (thousands one by one would take minutes), collecting their
 * problems. When rows changed meanwhile, the refused cases are sent again one at a time to find
 * any that wrote although refused; a change from accepted cases alone is fine.
 */
export async function runConcurrently(cases: FuzzCase[], writes: WriteWatch, failures: string[]): Promise<void> {
  const results = await Promise.all(cases.map((c) => c.send()));
  results.forEach((r) => failures.push(...r.problems));
  if (!(await writes.changed())) return;
  for (const [i, c] of cases.entries()) {
    if (!results[i].refused) continue;
    const again = await c.send();
    if ((await writes.changed()) && again.refused) failures.push(`refused but wrote: ${c.what}`);
  }
}
