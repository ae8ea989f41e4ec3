/**
 * Contender 1, the practical limit of the machine: bare `node:http` + `pg`, one pool like the
 * gateway's, the equivalent SQL written by hand (one statement per read, the same inserts in one
 * transaction for a subscription), and the same `{isError, errorMsg, data}` envelope. No
 * framework, no ORM, no GraphQL. Spawned by bench/run.ts; answers `cpu` over IPC.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type PoolClient } from 'pg';
import { applyBps, Dec, decimalNumber, decimalString } from '../../src/common/money';
import { installControl } from './control';

const socket = process.env.BENCH_PG_SOCKET ? JSON.parse(process.env.BENCH_PG_SOCKET) : null;
const pool = new Pool({
  ...(socket ? { host: socket.host, port: socket.port, user: socket.user, database: socket.dbName } : { connectionString: process.env.BENCH_DATABASE_URL }),
  // The gateway's pool size (DB_POOL_MAX, default 10).
  max: Number(process.env.DB_POOL_MAX || 10),
});

type Row = Record<string, any>;
const ms = (d: Date | null) => (d ? d.getTime() : null);
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}
const ok = (res: ServerResponse, data: unknown) => send(res, 200, { isError: false, errorMsg: 'NA', data });
const fail = (res: ServerResponse, status: number, message: string) => send(res, status, { isError: true, errorMsg: message, data: {} });

function hostname(req: IncomingMessage): string {
  return (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
}

async function readJson(req: IncomingMessage): Promise<Row> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

// ---- records, as the description shows them -------------------------------------------------

function shareClassRecord(r: Row) {
  return {
    shareClassId: r.id,
    fundId: r.fund_id,
    currency: r.currency,
    provider: r.provider,
    status: r.status,
    feesSubBps: r.fees_sub_bps,
    feesRedBps: r.fees_red_bps,
    feesMgmtBps: r.fees_mgmt_bps,
    feesPerfBps: r.fees_perf_bps,
    feesWatermarkBps: r.fees_watermark_bps,
    meta: r.meta,
    details: r.details,
    metrics: r.metrics,
    overview: r.overview,
    subRedemption: r.sub_redemption,
    bank: r.bank,
    defaultChainId: r.default_chain_id,
  };
}

function navRecord(r: Row) {
  return {
    entryId: r.entry_id,
    shareClassId: r.share_class_id,
    close: decimalString(r.close),
    open: decimalString(r.open),
    high: decimalString(r.high),
    low: decimalString(r.low),
    currency: r.currency,
    volume: Number(r.volume),
    publishedAt: ms(r.published_at),
    createdAt: ms(r.created_at),
    createdBy: r.created_by,
  };
}

function historyMap(entries: { at: string; status: string; by: string; note: string | null }[] | null) {
  const map: Record<string, { status: string; by: string; note?: string }> = {};
  for (const e of entries ?? []) map[e.at] = e.note != null ? { status: e.status, by: e.by, note: e.note } : { status: e.status, by: e.by };
  return map;
}

function twoStepRecord(r: Row, history: Row[] | null) {
  const rec: Row = {
    orderId: r.id,
    orderType: 'SUBSCRIPTION',
    status: r.status,
    distributorId: r.distributor_id,
    investorId: r.investor_id,
    shareClassId: r.share_class_id,
    amountSubscription: decimalNumber(r.amount),
    amountFeesTotal: decimalNumber(r.amount_fees_total),
    amountPayable: decimalNumber(r.amount_payable),
    amountTokensEstimated: r.amount_tokens_estimated === null ? '-1' : decimalString(r.amount_tokens_estimated),
    feesSubBps: r.fees_sub_bps,
    currency: r.currency,
    deliveryMode: r.delivery_mode,
    deliveryWallet: r.delivery_wallet,
    nav: r.nav === null ? '-1' : decimalString(r.nav),
    navPublishedAt: ms(r.nav_published_at),
    externalRef: r.external_ref,
    createdAt: ms(r.created_at),
    createdBy: r.created_by,
    updatedAt: ms(r.updated_at),
    updatedBy: r.updated_by,
    statusHistory: historyMap(history as never),
  };
  if (r.supply_refs) rec.supplyRefs = r.supply_refs;
  return rec;
}

const HISTORY = `(select json_agg(json_build_object('at', (extract(epoch from e.at) * 1000)::bigint::text, 'status', e.status, 'by', e.by, 'note', e.note) order by e.at)
                  from order_status_entry e where e.order_id = o.id) as history`;

// ---- handlers ------------------------------------------------------------------------------

async function shareClass(req: IncomingMessage, res: ServerResponse, id: string) {
  const { rows } = await pool.query(
    `select sc.*, t.chain_id as default_chain_id
       from distributor_host h
       join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $2
       join share_class sc on sc.id = g.share_class_id
       left join token t on t.share_class_id = sc.id and t.is_primary
      where h.hostname = $1`,
    [hostname(req), id],
  );
  if (!rows.length) return fail(res, 404, 'shareClassId not found');
  ok(res, shareClassRecord(rows[0]));
}

async function liveNav(req: IncomingMessage, res: ServerResponse, shareClassId: string) {
  const { rows } = await pool.query(
    `select n.*
       from distributor_host h
       join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $2
       cross join lateral (select * from nav where share_class_id = $2 order by published_at desc limit 1) n
      where h.hostname = $1`,
    [hostname(req), shareClassId],
  );
  if (!rows.length) return fail(res, 404, 'No NAV published');
  ok(res, navRecord(rows[0]));
}

async function navHistory(req: IncomingMessage, res: ServerResponse, q: URLSearchParams) {
  const shareClassId = q.get('shareClassId') ?? '';
  const start = q.get('startDate');
  const end = q.get('endDate');
  const ranged = start && end;
  const { rows } = await pool.query(
    ranged
      ? `select n.* from distributor_host h
           join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $2
           join nav n on n.share_class_id = $2 and n.published_at between to_timestamp($3::bigint / 1000.0) and to_timestamp($4::bigint / 1000.0)
          where h.hostname = $1 order by n.published_at`
      : `select * from (select n.* from distributor_host h
           join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $2
           cross join lateral (select * from nav where share_class_id = $2 order by published_at desc limit 100) n
          where h.hostname = $1) x order by published_at`,
    ranged ? [hostname(req), shareClassId, start, end] : [hostname(req), shareClassId],
  );
  ok(res, rows.map(navRecord));
}

async function orderById(req: IncomingMessage, res: ServerResponse, id: string) {
  const { rows } = await pool.query(
    `select o.*, ${HISTORY}
       from distributor_host h join "order" o on o.distributor_id = h.distributor_id and o.id = $2
      where h.hostname = $1`,
    [hostname(req), id],
  );
  if (!rows.length) return fail(res, 404, 'order not found');
  ok(res, twoStepRecord(rows[0], rows[0].history));
}

async function ordersByDistributor(req: IncomingMessage, res: ServerResponse, distributorId: string, status: string | null) {
  const { rows } = await pool.query(
    `select o.id, o.status, o.investor_id, o.share_class_id, o.amount, o.amount_payable, o.created_at
       from distributor_host h join "order" o on o.distributor_id = h.distributor_id
      where h.hostname = $1 and h.distributor_id = $2 and o.flow = 'two_step' and o.type = 'subscription' and ($3::text is null or o.status = $3)
      order by o.created_at desc, o.id desc`,
    [hostname(req), distributorId, status],
  );
  const items = rows.map((r) => ({
    orderId: r.id,
    orderType: 'SUBSCRIPTION',
    status: r.status,
    investorId: r.investor_id,
    shareClassId: r.share_class_id,
    amountSubscription: decimalNumber(r.amount),
    amountPayable: decimalNumber(r.amount_payable),
    createdAt: ms(r.created_at),
  }));
  ok(res, { items, count: items.length });
}

/** Two-step subscription: the checks, the priced order, its history entry and its event, in one transaction. */
async function subscribe(req: IncomingMessage, res: ServerResponse) {
  const body = await readJson(req);
  for (const f of ['distributorId', 'investorId', 'shareClassId']) {
    if (typeof body[f] !== 'string' || !body[f]) return fail(res, 400, `${f} is required`);
  }
  if (typeof body.amountSubscription !== 'number' || body.amountSubscription < 0) return fail(res, 400, 'amountSubscription must be a number');
  const actor = (req.headers['x-actor'] as string | undefined)?.trim() || 'Network';
  const client: PoolClient = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query(
      `select sc.currency, sc.fees_sub_bps, g.delivery_mode, t.chain_id, w.address as investor_wallet, dw.address as distributor_wallet,
              n.close, n.published_at,
              exists (select 1 from investor_grant ig where ig.investor_id = i.id and ig.share_class_id = sc.id) as granted
         from distributor_host h
         join investor i on i.id = $3 and i.distributor_id = h.distributor_id
         join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $4
         join share_class sc on sc.id = g.share_class_id
         left join token t on t.share_class_id = sc.id and t.is_primary
         left join investor_wallet w on w.investor_id = i.id and w.chain_id = t.chain_id and w.status = 'whitelisted'
         left join distributor_wallet dw on dw.distributor_id = h.distributor_id and dw.chain_id = t.chain_id
         left join lateral (select close, published_at from nav where share_class_id = sc.id order by published_at desc limit 1) n on true
        where h.hostname = $1 and h.distributor_id = $2`,
      [hostname(req), body.distributorId, body.investorId, body.shareClassId],
    );
    const p = rows[0];
    if (!p) {
      await client.query('rollback');
      return fail(res, 404, 'investor not found');
    }
    if (!p.granted || !p.investor_wallet) {
      await client.query('rollback');
      return fail(res, 400, 'investor is not eligible');
    }
    const amount = new Dec(body.amountSubscription);
    const fees = applyBps(amount, p.fees_sub_bps);
    const wallet = p.delivery_mode === 'hold' ? p.distributor_wallet : p.investor_wallet;
    const tokens = p.close ? amount.div(p.close).toDecimalPlaces(18).toFixed() : null;
    const inserted = await client.query(
      `insert into "order" (id, created_at, updated_at, created_by, updated_by, flow, surface, type, status, distributor_id, investor_id, share_class_id,
          currency, amount, fees_sub_bps, amount_fees_total, amount_payable, nav, nav_published_at, amount_tokens_estimated,
          delivery_mode, delivery_wallet, chain_id, wallet_address, external_ref, event_seq)
        values ('OR' || lpad(nextval('id_seq_or')::text, 6, '0'), now(), now(), $1, $1, 'two_step', 'R', 'subscription', 'created', $2, $3, $4,
          $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, 1)
        returning *`,
      [
        actor,
        body.distributorId,
        body.investorId,
        body.shareClassId,
        typeof body.currency === 'string' ? body.currency : p.currency,
        amount.toFixed(),
        p.fees_sub_bps,
        fees.toFixed(),
        amount.plus(fees).toFixed(),
        p.close,
        p.published_at,
        tokens,
        p.delivery_mode,
        wallet,
        p.chain_id,
        p.investor_wallet,
        typeof body.externalRef === 'string' ? body.externalRef : null,
      ],
    );
    const o = inserted.rows[0];
    await client.query(
      `with entry as (insert into order_status_entry (order_id, at, status, by) values ($1, $2, 'created', $3) returning id)
       insert into event (event_id, type, aggregate_type, aggregate_id, distributor_id, payload, occurred_at)
       values ($4, 'order.transition', 'order', $1, $5, $6, $2)`,
      [
        o.id,
        o.created_at,
        actor,
        `evt_${createHash('md5').update(o.id).digest('hex').slice(0, 24)}`,
        o.distributor_id,
        JSON.stringify({ orderId: o.id, flow: 'two_step', surface: 'R', type: 'subscription', status: 'created', previousStatus: null, sequence: 1, by: actor }),
      ],
    );
    await client.query('commit');
    ok(res, twoStepRecord(o, [{ at: String(o.created_at.getTime()), status: 'created', by: actor, note: null }]));
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The equivalent of the GraphQL page of orders with their investor and share class (ops token). */
async function ordersPage(req: IncomingMessage, res: ServerResponse, q: URLSearchParams) {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const limit = Math.min(Number(q.get('limit') ?? 100), 1000);
  const distributorId = q.get('distributorId');
  const status = q.get('status');
  const { rows } = await pool.query(
    `select o.*, row_to_json(i) as investor, row_to_json(sc) as share_class
       from "order" o join investor i on i.id = o.investor_id join share_class sc on sc.id = o.share_class_id
      where exists (select 1 from ops_token where token_hash = $1 and revoked_at is null)
        and ($2::text is null or o.distributor_id = $2) and ($3::text is null or o.status = $3)
      order by o.created_at desc, o.id desc limit $4`,
    [hash(token), distributorId, status, limit],
  );
  const camel = (r: Row) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()), v instanceof Date ? v.getTime() : v]));
  const items = rows.map(({ investor, share_class, ...o }) => ({ ...camel(o), investor: camel(investor), shareClass: camel(share_class) }));
  send(res, 200, { data: { orders: { items, count: items.length } } });
}

// ---- routing -------------------------------------------------------------------------------

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  let m: RegExpExecArray | null;
  let work: Promise<void>;
  if (req.method === 'GET' && path === '/api/v1/funds/shareclass/nav/live') work = liveNav(req, res, url.searchParams.get('shareClassId') ?? '');
  else if (req.method === 'GET' && path === '/api/v1/funds/shareclass/nav/history') work = navHistory(req, res, url.searchParams);
  else if (req.method === 'GET' && (m = /^\/api\/v1\/funds\/shareclass\/([^/]+)$/.exec(path))) work = shareClass(req, res, m[1]);
  else if (req.method === 'POST' && path === '/api/v1/orders/subscribe') work = subscribe(req, res);
  else if (req.method === 'GET' && (m = /^\/api\/v1\/orders\/subscriptions\/distributor\/([^/]+)$/.exec(path))) work = ordersByDistributor(req, res, m[1], url.searchParams.get('status'));
  else if (req.method === 'GET' && (m = /^\/api\/v1\/orders\/([^/]+)$/.exec(path))) work = orderById(req, res, m[1]);
  else if (req.method === 'GET' && path === '/bench/orders-page') work = ordersPage(req, res, url.searchParams);
  else return fail(res, 404, `no route ${req.method} ${path}`);
  work.catch((err) => {
    process.stderr.write(`baseline: ${(err as Error).stack}\n`);
    if (!res.headersSent) fail(res, 500, 'internal server error');
  });
});
server.keepAliveTimeout = 65_000;

server.listen(0, '127.0.0.1', () => {
  installControl(async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
    await pool.end();
  });
  process.send?.({ type: 'ready', port: (server.address() as AddressInfo).port });
});
