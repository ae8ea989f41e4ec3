import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { systemClock } from '../src/common/clock';
import { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openDatabase, ormOptions } from '../src/boot/orm';
import { MIGRATIONS } from '../src/persistence/migrations';

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The bench dataset, seeded in bulk with `INSERT … SELECT generate_series` so a million orders
 * take seconds, consistent with the entities: an issuer and a fund, share classes with a primary
 * token on the default chain, an hourly NAV history on the hot share class, distributors with a
 * host mapping and a wallet, share-class grants, investors with grants and a whitelisted wallet on
 * the default chain, and orders of both flows with their status history.
 *
 * The shape does not change with the size, so p99 at 10,000 and at 1,000,000 orders compare the
 * cost of the same answer: the hot distributor (`DT000001`, host `dist-1.bench.local`) always has
 * 100 two-step orders in status `submitted` (its oldest ones: the worst case for an index that is
 * ordered by `createdAt` but does not lead with the status), and its other orders are `cancelled`
 * (two-step) or `pending`/`accepted` (one-step). Those 100 `submitted` orders are all the hot
 * investor's (`IN000001`), so its own list is as long as its distributor's. The hot investor holds
 * a large balance of the hot share class in one lot settled long ago (no lock-up binds it), so a
 * whole run of one-step redemptions of one token each never exhausts it.
 */
export interface DatasetSize {
  orders: number;
  navs: number;
}

export const DISTRIBUTORS = 20;
export const SHARE_CLASSES = 3;
export const INVESTORS_PER_DISTRIBUTOR = 50;
export const CHAIN_ID = '11155111';
export const HOT_DISTRIBUTOR = 'DT000001';
export const HOT_HOST = 'dist-1.bench.local';
export const HOT_SHARE_CLASS = 'SC000001';
export const HOT_INVESTOR = 'IN000001';
export const LIST_STATUS = 'submitted';
/** Two-step `submitted` orders of the hot distributor, whatever the size. */
export const LIST_SIZE = 100;
export const BENCH_ACTOR = 'bench';
export const OPS_TOKEN = 'ops_bench-token-not-a-secret';
export const HOUR_MS = 3_600_000;
/** The hot investor's tokens of the hot share class: thousands of one-token redemptions a round reserve next to nothing. */
export const HOT_HOLDING = '1000000000';
/** Changed when the dataset's shape changes without the seed's text changing (templates are rebuilt). */
const DATASET_VERSION = 2;

const formatId = (prefix: string, n: number) => prefix + String(n).padStart(6, '0');

/** Ids of the hot distributor's two-step orders spread over the whole book (for `GET /orders/:id`). */
export function hotTwoStepOrderIds(orders: number, count = 100): string[] {
  // Order n belongs to distributor ((n-1) % D) + 1 and is its k-th, k = floor((n-1) / D); every
  // fifth k is one-step. Take k spread evenly, skipping one-step ones.
  const perDistributor = Math.floor(orders / DISTRIBUTORS);
  const ids: string[] = [];
  for (let i = 0; i < count && perDistributor > 0; i++) {
    let k = Math.floor((i * perDistributor) / count);
    if (k % 5 === 4) k -= 1;
    ids.push(formatId('OR', k * DISTRIBUTORS + 1));
  }
  return [...new Set(ids)];
}

/** `postgres://…/<db>` → `postgres://…/<db>_<suffix>` */
export function sibling(url: string, suffix: string): string {
  const u = new URL(url);
  const base = u.pathname.replace(/^\//, '') || 'postgres';
  u.pathname = `/${base}_${suffix}`;
  return u.toString();
}

async function admin<T>(url: string, work: (c: Client) => Promise<T>): Promise<T> {
  const u = new URL(url);
  u.pathname = '/postgres';
  const c = new Client({ connectionString: u.toString() });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const dbName = (url: string) => new URL(url).pathname.replace(/^\//, '');

/** What a seeded template holds: reseeded when the size, the migrations or the seed change. */
function fingerprint(size: DatasetSize): string {
  const seedText = createHash('sha256').update(seedDataset.toString()).digest('hex').slice(0, 16);
  return JSON.stringify({ version: DATASET_VERSION, orders: size.orders, navs: size.navs, migrations: MIGRATIONS.map((m) => m.name), seed: seedText });
}

/**
 * Where the bench database lives: a database of its own on the PostgreSQL server of
 * DATABASE_URL, or the embedded PostgreSQL's socket (numbers then are not comparable).
 */
export type BenchDatabase = { kind: 'server'; url: string } | { kind: 'embedded'; socket: { host: string; port: number; user: string; dbName: string } };

export function pgConfig(db: BenchDatabase) {
  return db.kind === 'server' ? { connectionString: db.url } : { host: db.socket.host, port: db.socket.port, user: db.socket.user, database: db.socket.dbName };
}

/** Env of a spawned server: how it reaches the bench database. */
export function databaseEnv(db: BenchDatabase): Record<string, string> {
  return db.kind === 'server' ? { BENCH_DATABASE_URL: db.url } : { BENCH_PG_SOCKET: JSON.stringify(db.socket) };
}

/** (Re)creates the bench database, applies the project's migrations, seeds it. */
export async function prepareDatabase(target: BenchDatabase, size: DatasetSize, log: (line: string) => void): Promise<void> {
  if (target.kind === 'server') {
    // Seeded once into `<bench db>_tpl` (kept while its fingerprint matches), then cloned for each
    // run: every run starts from the same data, and a million orders are not reseeded each time.
    const template = sibling(target.url, 'tpl');
    const wanted = fingerprint(size);
    const current = await admin(target.url, async (c) => {
      const r = await c.query<{ d: string | null }>(`select shobj_description(oid, 'pg_database') as d from pg_database where datname = $1`, [
        dbName(template),
      ]);
      return r.rows[0]?.d ?? null;
    });
    if (current !== wanted) {
      await admin(target.url, async (c) => {
        await c.query(`drop database if exists "${dbName(template)}" with (force)`);
        await c.query(`create database "${dbName(template)}"`);
      });
      const db = await openDatabase({ databaseUrl: template, dataDir: null, poolMax: 2, clock: systemClock });
      try {
        await migrate(db.orm, template);
      } finally {
        await db.close();
      }
      const c = new Client({ connectionString: template });
      await c.connect();
      try {
        const started = Date.now();
        await c.query('begin');
        await seedDataset((text, params) => c.query(text, params), size);
        await c.query('commit');
        await c.query('analyze');
        log(`seeded ${size.orders} orders and ${size.navs} NAVs in ${((Date.now() - started) / 1000).toFixed(1)} s (template ${dbName(template)})`);
      } finally {
        await c.end();
      }
      await admin(target.url, (c) => c.query(`comment on database "${dbName(template)}" is ${quote(wanted)}`));
    } else {
      log(`reusing the seeded template ${dbName(template)}`);
    }
    await admin(target.url, async (c) => {
      await c.query(`drop database if exists "${dbName(target.url)}" with (force)`);
      await c.query(`create database "${dbName(target.url)}" template "${dbName(template)}"`);
    });
    return;
  } else {
    const orm = await MikroORM.init({ ...ormOptions(systemClock), ...target.socket, pool: { min: 0, max: 2 } });
    try {
      await migrate(orm, null);
    } finally {
      await orm.close(true);
    }
  }
  const c = new Client(pgConfig(target));
  await c.connect();
  try {
    const started = Date.now();
    await c.query('begin');
    await seedDataset((text, params) => c.query(text, params), size);
    await c.query('commit');
    await c.query('analyze');
    log(`seeded ${size.orders} orders and ${size.navs} NAVs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await c.end();
  }
}

/** Runs one SQL text (possibly several statements when without parameters). */
export type Execute = (sql: string, params?: unknown[]) => Promise<unknown>;

/** Seeds an empty, migrated database; the caller decides the transaction. */
export async function seedDataset(exec: Execute, size: DatasetSize): Promise<void> {
  const c = { query: exec };
  const now = Date.now();
  // The last NAV is struck on the last full hour; orders are one a second up to a minute ago.
  const lastNav = Math.floor(now / HOUR_MS) * HOUR_MS;
  const audit = `now(), now(), '${BENCH_ACTOR}', '${BENCH_ACTOR}'`;
  const sql = String.raw;
  await c.query(sql`
    insert into issuer (id, created_at, updated_at, created_by, updated_by, name, lei, jurisdiction)
      values ('IS000001', ${audit}, 'Bench Capital', '5493001KJTIIGC8Y1R12', 'LU');
    insert into fund (id, created_at, updated_at, created_by, updated_by, issuer_id, name, description)
      values ('FN000001', ${audit}, 'IS000001', 'Bench Treasury Fund', 'Short-dated bills');
    insert into share_class (id, created_at, updated_at, created_by, updated_by, fund_id, currency, provider, status,
        fees_sub_bps, fees_red_bps, fees_mgmt_bps, fees_perf_bps, fees_watermark_bps, meta, details, metrics, overview, sub_redemption, bank)
      select 'SC' || lpad(s::text, 6, '0'), ${audit}, 'FN000001', 'USD', 'supply-sim', 'active', 10, 10, 15, 0, 0,
        jsonb_build_object('name', 'Bench Class ' || s, 'manager', 'Bench Investment Management S.A.'),
        jsonb_build_object('isin', 'LU29000000' || lpad(s::text, 2, '0'), 'jurisdiction', 'LU', 'minimumInvestment_fiat', 1000),
        jsonb_build_object('apy_bps', 512, 'tvl_fiat', '125430000.55', 'change7D', '1.85', 'currency', 'USD', 'maturity_days', -1),
        jsonb_build_object('assetClass', 'Money Market', 'description', 'Daily-dealing exposure to short-dated government bills.', 'riskLevel', 1),
        jsonb_build_object('subFreq', 1, 'redFreq', 1, 'cutOffTime_days', 0, 'lockup', 0, 'eligibleInvestors', 'PROF', 'distributionPolicy', 'Accumulating'),
        jsonb_build_object('accountHolderName', 'Bench Treasury Fund', 'accountNumber', 'LU2800194000000' || s, 'accountType', 'IBAN',
          'bankName', 'Banque de Luxembourg', 'swiftCode', 'BLUXLULL', 'currency', 'USD')
      from generate_series(1, ${SHARE_CLASSES}) s;
    insert into token (id, created_at, updated_at, created_by, updated_by, share_class_id, chain_id, contract_address, name, symbol, decimals, is_primary)
      select 'TK' || lpad(s::text, 6, '0'), ${audit}, 'SC' || lpad(s::text, 6, '0'), '${CHAIN_ID}',
        '0x' || lpad(to_hex(s), 40, 'a'), 'Bench Class ' || s, 'BNCH' || s, 6, true
      from generate_series(1, ${SHARE_CLASSES}) s;
    insert into distributor (id, created_at, updated_at, created_by, updated_by, name, status)
      select 'DT' || lpad(d::text, 6, '0'), ${audit}, 'Bench Distributor ' || d, 'active' from generate_series(1, ${DISTRIBUTORS}) d;
    -- Bound to the loopback range, as production requires a binding (HOST_BINDING_REQUIRED).
    insert into distributor_host (hostname, created_at, updated_at, created_by, updated_by, distributor_id, source_ranges)
      select 'dist-' || d || '.bench.local', ${audit}, 'DT' || lpad(d::text, 6, '0'), '["127.0.0.0/8"]'::jsonb from generate_series(1, ${DISTRIBUTORS}) d;
    insert into distributor_wallet (created_at, updated_at, created_by, updated_by, distributor_id, chain_id, address)
      select ${audit}, 'DT' || lpad(d::text, 6, '0'), '${CHAIN_ID}', '0xd' || lpad(to_hex(d), 39, '0') from generate_series(1, ${DISTRIBUTORS}) d;
    insert into share_class_grant (created_at, updated_at, created_by, updated_by, distributor_id, share_class_id, delivery_mode)
      select ${audit}, 'DT' || lpad(d::text, 6, '0'), 'SC' || lpad(s::text, 6, '0'), case when s % 2 = 1 then 'passthrough' else 'hold' end
      from generate_series(1, ${DISTRIBUTORS}) d, generate_series(1, ${SHARE_CLASSES}) s;
  `);
  // Investor i belongs to distributor ((i-1) % D) + 1, so IN000001 is the hot distributor's.
  const investors = DISTRIBUTORS * INVESTORS_PER_DISTRIBUTOR;
  await c.query(sql`
    insert into investor (id, created_at, updated_at, created_by, updated_by, distributor_id, external_investor_id, email, name, country_code, status)
      select 'IN' || lpad(i::text, greatest(6, length(i::text)), '0'), ${audit}, 'DT' || lpad((((i - 1) % ${DISTRIBUTORS}) + 1)::text, 6, '0'),
        'ext-' || i, 'investor' || i || '@example.com', 'Investor ' || i, 'LU', 'active'
      from generate_series(1, ${investors}) i;
    insert into investor_grant (created_at, updated_at, created_by, updated_by, investor_id, share_class_id)
      select ${audit}, 'IN' || lpad(i::text, greatest(6, length(i::text)), '0'), 'SC' || lpad(s::text, 6, '0')
      from generate_series(1, ${investors}) i, generate_series(1, ${SHARE_CLASSES}) s;
    insert into investor_wallet (created_at, updated_at, created_by, updated_by, investor_id, chain_id, address, status, whitelisted_at)
      select ${audit}, 'IN' || lpad(i::text, greatest(6, length(i::text)), '0'), '${CHAIN_ID}', '0xb' || lpad(to_hex(i), 39, '0'), 'whitelisted', now()
      from generate_series(1, ${investors}) i;
  `);
  // An hourly NAV history on every share class, the hot one with size.navs entries.
  await c.query(
    sql`
    insert into nav (created_at, updated_at, created_by, updated_by, struck_by, share_class_id, entry_id, close, open, high, low, currency, volume, published_at)
      select p, p, '${BENCH_ACTOR}', '${BENCH_ACTOR}', '${BENCH_ACTOR}', sc, to_char(p at time zone 'UTC', 'YYYYMMDDHH24MISS'),
        round(1 + h * 0.0000001, 6), round(1 + h * 0.0000001, 6), round(1 + h * 0.0000001, 6), round(1 + h * 0.0000001, 6), 'USD', 0, p
      from (select 'SC' || lpad(s::text, 6, '0') as sc, h,
              to_timestamp(($1::bigint - (case when s = 1 then $2::int else 100 end - h)::bigint * ${HOUR_MS}) / 1000.0) as p
            from generate_series(1, ${SHARE_CLASSES}) s, generate_series(1, greatest($2::int, 100)) h
            where h <= case when s = 1 then $2::int else 100 end) x;
  `,
    [lastNav, size.navs],
  );
  // Orders: n-th belongs to distributor ((n-1) % D) + 1 as its k-th, k = (n-1) / D; every fifth k
  // is a one-step order of surface R. Share classes and investors rotate within the distributor.
  await c.query(
    sql`
    insert into "order" (id, created_at, updated_at, created_by, updated_by, flow, surface, type, status, distributor_id, investor_id, share_class_id,
        currency, amount, fees_sub_bps, amount_fees_total, amount_payable, nav, nav_published_at, amount_tokens_estimated,
        delivery_mode, delivery_wallet, chain_id, wallet_address, external_ref, event_seq)
      select case when one_step then 'ord_' || substr(md5(n::text), 1, 24) else 'OR' || lpad(n::text, greatest(6, length(n::text)), '0') end,
        at, at + interval '1 second', 'Network', 'Network',
        case when one_step then 'one_step' else 'two_step' end, 'R', 'subscription',
        case when one_step then (case when k % 2 = 0 then 'pending' else 'accepted' end)
             when k < ${(LIST_SIZE * 5) / 4} then '${LIST_STATUS}' else 'cancelled' end,
        'DT' || lpad(d::text, 6, '0'),
        case when d = 1 and not one_step and k < ${(LIST_SIZE * 5) / 4} then '${HOT_INVESTOR}'
             else 'IN' || lpad((((k % ${INVESTORS_PER_DISTRIBUTOR}) * ${DISTRIBUTORS}) + d)::text, 6, '0') end,
        'SC' || lpad(((k % ${SHARE_CLASSES}) + 1)::text, 6, '0'),
        'USD', 1000, 10, 1, 1001, '1.000000', at - interval '1 hour', '1000',
        case when one_step then null else 'passthrough' end, case when one_step then null else '0x' || lpad(to_hex(d), 40, 'b') end,
        '${CHAIN_ID}', '0x' || lpad(to_hex(d), 40, 'b'), 'ext-' || n, case when one_step then 1 else 2 end
      from (select n, ((n - 1) % ${DISTRIBUTORS}) + 1 as d, (n - 1) / ${DISTRIBUTORS} as k, ((n - 1) / ${DISTRIBUTORS}) % 5 = 4 as one_step,
              to_timestamp(($1::bigint - ($2::int - n)::bigint * 1000 - 60000) / 1000.0) as at
            from generate_series(1, $2::int) n) x;
  `,
    [now, size.orders],
  );
  // History: the opening entry, and the transition that led to the current status.
  await c.query(sql`
    insert into order_status_entry (order_id, at, status, by, note)
      select id, created_at, case when flow = 'one_step' then 'pending' else 'created' end, 'Network', null from "order";
    insert into order_status_entry (order_id, at, status, by, note)
      select id, created_at + interval '1 second', status, 'Network', case when status = 'cancelled' then 'bench' end
      from "order" where status not in ('created', 'pending');
  `);
  await c.query(
    sql`
    insert into holding (created_at, updated_at, created_by, updated_by, investor_id, share_class_id, balance)
      values (${audit}, '${HOT_INVESTOR}', '${HOT_SHARE_CLASS}', ${HOT_HOLDING});
    insert into holding_lot (created_at, updated_at, created_by, updated_by, investor_id, share_class_id, quantity, remaining, settled_at, source)
      values (${audit}, '${HOT_INVESTOR}', '${HOT_SHARE_CLASS}', ${HOT_HOLDING}, ${HOT_HOLDING}, now() - interval '400 days', 'opening');
  `,
  );
  await c.query(
    `with p as (insert into ops_principal (name, roles, created_at, created_by) values ('bench', '{admin}', now(), 'bench') returning id)
     insert into ops_token (principal_id, token_hash, created_at, expires_at) select p.id, $1, now(), now() + interval '30 days' from p`,
    [createHash('sha256').update(OPS_TOKEN).digest('hex')],
  );
  const counts: Record<string, number> = { is: 1, fn: 1, sc: SHARE_CLASSES, tk: SHARE_CLASSES, dt: DISTRIBUTORS, in: investors, or: size.orders };
  for (const [prefix, n] of Object.entries(counts)) await c.query(`select setval('id_seq_${prefix}', $1)`, [n]);
}
