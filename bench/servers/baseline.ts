/**
 * Contender 1, the practical limit of the machine: bare `node:http` + `pg`, one pool like the
 * gateway's, the equivalent SQL written by hand (one statement per read; a placement's checks in
 * one read and its order, history entry and event in one insert statement, inside a transaction
 * only where a row is locked: a redemption's holding), and the same `{isError, errorMsg, data}`
 * envelope. No framework, no ORM, no GraphQL. Spawned by bench/run.ts; answers `cpu` over IPC.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, types, type PoolClient } from 'pg';
import { applyBps, Dec, decimalNumber, decimalString } from '../../src/common/money';
import { nextIdSql } from '../../src/common/ids';
import { baselineDates, DEFAULT_BASELINE_CALENDAR, type BaselineDates } from './baseline-dealing';
import { installControl } from './control';

// `date` columns (dealing dates) as the `YYYY-MM-DD` text the records show, not a local-midnight Date.
types.setTypeParser(1082, (v: string) => v);

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
    dealingDate: r.dealing_date,
    cutOffAt: ms(r.cut_off_at),
    expectedSettlementDate: r.expected_settlement_date,
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

/** A list page of the facade's default size (1,000); `nextCursor` only says whether more follow. */
const LIST_LIMIT = 1000;

async function twoStepOrders(req: IncomingMessage, res: ServerResponse, by: 'distributor_id' | 'investor_id', id: string, status: string | null) {
  const { rows } = await pool.query(
    `select o.id, o.status, o.investor_id, o.share_class_id, o.amount, o.amount_payable, o.created_at
       from distributor_host h join "order" o on o.distributor_id = h.distributor_id
      where h.hostname = $1 and o.${by} = $2 and o.flow = 'two_step' and o.type = 'subscription' and ($3::text is null or o.status = $3)
      order by o.created_at desc, o.id desc limit ${LIST_LIMIT + 1}`,
    [hostname(req), id, status],
  );
  const more = rows.length > LIST_LIMIT;
  const items = rows.slice(0, LIST_LIMIT).map((r) => ({
    orderId: r.id,
    orderType: 'SUBSCRIPTION',
    status: r.status,
    investorId: r.investor_id,
    shareClassId: r.share_class_id,
    amountSubscription: decimalNumber(r.amount),
    amountPayable: decimalNumber(r.amount_payable),
    createdAt: ms(r.created_at),
  }));
  ok(res, { items, count: items.length, nextCursor: more ? items[items.length - 1].orderId : null });
}

// ---- placement -----------------------------------------------------------------------------

/**
 * The share class's dealing set-up, read with the parties: its status, currency, minimum
 * investment, frequencies, cut-off days, lock-up and calendar row (none: the default calendar).
 */
const DEALING_COLUMNS = `sc.status as share_class_status, sc.currency, sc.fees_sub_bps, sc.sub_redemption, (sc.details->>'minimumInvestment_fiat')::numeric::text as minimum,
              cal.time_zone, cal.cut_off_time, cal.settlement_lag_days, cal.holidays, cal.settlement_currencies`;

function datesFor(p: Row, kind: 'subscription' | 'redemption', now: Date): BaselineDates {
  const cal = p.time_zone
    ? { timeZone: p.time_zone, cutOffTime: p.cut_off_time, settlementLagDays: p.settlement_lag_days, holidays: p.holidays }
    : DEFAULT_BASELINE_CALENDAR;
  const s = p.sub_redemption ?? {};
  return baselineDates(cal, Number(kind === 'subscription' ? s.subFreq : s.redFreq) || 0, Number(s.cutOffTime_days) || 0, now);
}

/** The currency and minimum checks of a subscription's terms: a message when refused. */
function subscriptionRefusal(p: Row, amount: InstanceType<typeof Dec>, requested: unknown): { currency: string } | { refused: string } {
  const allowed = [p.currency, ...((p.settlement_currencies as string[] | null) ?? []).filter((c) => c !== p.currency)];
  const currency = typeof requested === 'string' ? requested.trim().toUpperCase() : p.currency;
  if (!allowed.includes(currency)) return { refused: `currency must be one of ${allowed.join(', ')}` };
  if (amount.lessThan(new Dec(p.minimum ?? 0))) return { refused: `amount is below the minimum investment of ${p.minimum} ${p.currency}` };
  return { currency };
}

/** The order, its first history entry and its event in one statement (as the gateway's recordPlacement). */
async function insertOrder(db: Pool | PoolClient, o: Row, status: string, actor: string): Promise<Row> {
  const columns = Object.keys(o);
  const idSql = o.id === undefined ? nextIdSql('OR') : null;
  const names = columns.filter((c) => c !== 'id');
  const values = names.map((_, i) => `$${i + 4}`);
  const { rows } = await db.query(
    `with o as (insert into "order" (id, created_at, updated_at, created_by, updated_by, status, event_seq, ${names.join(', ')})
                values (${idSql ?? `$${names.length + 4}`}, now(), now(), $1, $1, $2, 1, ${values.join(', ')}) returning *),
          h as (insert into order_status_entry (order_id, at, status, by) select o.id, o.created_at, $2, $1 from o),
          e as (insert into event (event_id, type, aggregate_type, aggregate_id, distributor_id, payload, occurred_at)
                select $3, 'order.transition', 'order', o.id, o.distributor_id,
                  jsonb_build_object('orderId', o.id, 'flow', o.flow, 'surface', o.surface, 'type', o.type, 'status', o.status, 'previousStatus', null,
                    'sequence', 1, 'webhookEvent', null, 'shareClassId', o.share_class_id, 'investorId', o.investor_id, 'distributorId', o.distributor_id, 'by', $1, 'note', null,
                    'dealingDate', o.dealing_date, 'cutOffAt', (extract(epoch from o.cut_off_at) * 1000)::bigint, 'expectedSettlementDate', o.expected_settlement_date),
                  o.created_at from o)
     select * from o`,
    [actor, status, `evt_${randomBytes(12).toString('hex')}`, ...names.map((c) => o[c]), ...(idSql ? [] : [o.id])],
  );
  return rows[0];
}

const actorOf = (req: IncomingMessage) => (req.headers['x-actor'] as string | undefined)?.trim() || 'Network';

/**
 * Two-step subscription: the checks and the priced order with its history entry and its event.
 * No BEGIN/COMMIT: one read and one insert statement, no row locked, so a transaction would
 * only add two round trips (the gateway's reasoning in src/modules/order/placement-parties.ts).
 */
async function subscribe(req: IncomingMessage, res: ServerResponse, body: Row) {
  for (const f of ['distributorId', 'investorId', 'shareClassId']) {
    if (typeof body[f] !== 'string' || !body[f]) return fail(res, 400, `${f} is required`);
  }
  if (typeof body.amountSubscription !== 'number' || body.amountSubscription < 0) return fail(res, 400, 'amountSubscription must be a number');
  const actor = actorOf(req);
  const { rows } = await pool.query(
    `select ${DEALING_COLUMNS}, i.status as investor_status, g.delivery_mode, t.chain_id, w.address as investor_wallet, dw.address as distributor_wallet,
            n.close, n.published_at,
            exists (select 1 from investor_grant ig where ig.investor_id = i.id and ig.share_class_id = sc.id) as granted
       from distributor_host h
       join investor i on i.id = $3 and i.distributor_id = h.distributor_id
       join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $4
       join share_class sc on sc.id = g.share_class_id
       left join dealing_calendar cal on cal.share_class_id = sc.id
       left join token t on t.share_class_id = sc.id and t.is_primary
       left join investor_wallet w on w.investor_id = i.id and w.chain_id = t.chain_id and w.status = 'whitelisted'
       left join distributor_wallet dw on dw.distributor_id = h.distributor_id and dw.chain_id = t.chain_id
       left join lateral (select close, published_at from nav where share_class_id = sc.id order by published_at desc limit 1) n on true
      where h.hostname = $1 and h.distributor_id = $2`,
    [hostname(req), body.distributorId, body.investorId, body.shareClassId],
  );
  const p = rows[0];
  if (!p) return fail(res, 404, 'investor not found');
  if (p.investor_status !== 'active' || p.share_class_status !== 'active') return fail(res, 409, 'not trading');
  if (!p.granted || !p.investor_wallet) return fail(res, 409, 'investor is not eligible');
  const amount = new Dec(body.amountSubscription);
  const terms = subscriptionRefusal(p, amount, body.currency);
  if ('refused' in terms) return fail(res, 400, terms.refused);
  const now = new Date();
  const dates = datesFor(p, 'subscription', now);
  const fees = applyBps(amount, p.fees_sub_bps);
  const o = await insertOrder(
    pool,
    {
      flow: 'two_step',
      surface: 'R',
      type: 'subscription',
      distributor_id: body.distributorId,
      investor_id: body.investorId,
      share_class_id: body.shareClassId,
      currency: terms.currency,
      amount: amount.toFixed(),
      fees_sub_bps: p.fees_sub_bps,
      amount_fees_total: fees.toFixed(),
      amount_payable: amount.plus(fees).toFixed(),
      nav: p.close,
      nav_published_at: p.published_at,
      amount_tokens_estimated: p.close ? amount.div(p.close).toDecimalPlaces(18).toFixed() : null,
      delivery_mode: p.delivery_mode,
      delivery_wallet: p.delivery_mode === 'hold' ? p.distributor_wallet : p.investor_wallet,
      chain_id: p.chain_id,
      wallet_address: p.investor_wallet,
      external_ref: typeof body.externalRef === 'string' ? body.externalRef : null,
      dealing_date: dates.dealingDate,
      cut_off_at: dates.cutOffAt,
      expected_settlement_date: dates.expectedSettlementDate,
    },
    'created',
    actor,
  );
  ok(res, twoStepRecord(o, [{ at: String(o.created_at.getTime()), status: 'created', by: actor, note: null }]));
}

/** The parties of a one-step placement: host → distributor, its investor, the distributor's grant, with the dealing set-up. */
const ONE_STEP_PARTIES = `select ${DEALING_COLUMNS}, i.status as investor_status
       from distributor_host h
       join investor i on i.id = $3 and i.distributor_id = h.distributor_id
       join share_class_grant g on g.distributor_id = h.distributor_id and g.share_class_id = $4
       join share_class sc on sc.id = g.share_class_id
       left join dealing_calendar cal on cal.share_class_id = sc.id
      where h.hostname = $1 and h.distributor_id = $2`;

function oneStepInput(body: Row, quantity: 'amount' | 'tokenCount'): string | null {
  for (const f of ['distributorId', 'investorId', 'shareClassId']) if (typeof body[f] !== 'string' || !body[f]) return `${f} is required`;
  const q = body[quantity];
  if ((typeof q !== 'number' && typeof q !== 'string') || !(Number(q) >= 0)) return `${quantity} must be >= 0`;
  return null;
}

function oneStepRecord(o: Row) {
  const quantity = o.type === 'subscription' ? { amount: decimalNumber(o.amount), currency: o.currency } : { tokenCount: decimalNumber(o.token_count) };
  return {
    orderId: o.id,
    status: o.status,
    type: o.type === 'subscription' ? 'subscribe' : 'redeem',
    shareClassId: o.share_class_id,
    investorId: o.investor_id,
    distributorId: o.distributor_id,
    ...quantity,
    createdAt: ms(o.created_at),
    dealingDate: o.dealing_date,
    cutOffAt: ms(o.cut_off_at),
    expectedSettlementDate: o.expected_settlement_date,
  };
}

/** A one-step order placed `pending` under a fresh `ord_…` id, with its entry and event. */
function placeOneStep(db: Pool | PoolClient, req: IncomingMessage, body: Row, dates: BaselineDates, order: Row): Promise<Row> {
  const parties = { distributor_id: body.distributorId, investor_id: body.investorId, share_class_id: body.shareClassId };
  const dealing = { dealing_date: dates.dealingDate, cut_off_at: dates.cutOffAt, expected_settlement_date: dates.expectedSettlementDate };
  return insertOrder(
    db,
    { id: `ord_${randomBytes(12).toString('hex')}`, flow: 'one_step', surface: 'R', ...parties, ...order, ...dealing },
    'pending',
    actorOf(req),
  );
}

/** One-step subscription (`amount`): placed `pending`, unpriced; one read and one insert statement, as the gateway. */
async function subscribeOneStep(req: IncomingMessage, res: ServerResponse, body: Row) {
  const invalid = oneStepInput(body, 'amount');
  if (invalid) return fail(res, 400, invalid);
  const { rows } = await pool.query(ONE_STEP_PARTIES, [hostname(req), body.distributorId, body.investorId, body.shareClassId]);
  const p = rows[0];
  if (!p) return fail(res, 404, 'investorId not found');
  if (p.investor_status !== 'active' || p.share_class_status !== 'active') return fail(res, 409, 'not trading');
  const amount = new Dec(body.amount);
  const terms = subscriptionRefusal(p, amount, body.currency);
  if ('refused' in terms) return fail(res, 400, terms.refused);
  const dates = datesFor(p, 'subscription', new Date());
  ok(res, oneStepRecord(await placeOneStep(pool, req, body, dates, { type: 'subscription', amount: amount.toFixed(), currency: terms.currency })));
}

/**
 * One-step redemption (`tokenCount`), in a transaction: the parties, the holding row locked FOR
 * UPDATE, then (a statement of its own, so it sees what the lock waited for) the tokens reserved
 * by open redemptions, the lock-up (lots read only when the share class has one, counted in whole
 * UTC days as the bench's calendars are UTC), then the order with its entry and event.
 */
async function redeemOneStep(req: IncomingMessage, res: ServerResponse, body: Row) {
  const invalid = oneStepInput(body, 'tokenCount');
  if (invalid) return fail(res, 400, invalid);
  const tokenCount = new Dec(body.tokenCount);
  const client: PoolClient = await pool.connect();
  try {
    await client.query('begin');
    const refuse = async (status: number, message: string) => {
      await client.query('rollback');
      fail(res, status, message);
    };
    const { rows } = await client.query(ONE_STEP_PARTIES, [hostname(req), body.distributorId, body.investorId, body.shareClassId]);
    const p = rows[0];
    if (!p) return refuse(404, 'investorId not found');
    if (p.investor_status !== 'active' || p.share_class_status !== 'active') return refuse(409, 'not trading');
    const now = new Date();
    const dates = datesFor(p, 'redemption', now);
    const held = await client.query(`select balance::text from holding where investor_id = $1 and share_class_id = $2 for update`, [
      body.investorId,
      body.shareClassId,
    ]);
    const balance = new Dec(held.rows[0]?.balance ?? 0);
    const reserved = await client.query(
      `select coalesce(sum(token_count), 0)::text as reserved from "order"
        where investor_id = $1 and share_class_id = $2 and flow = 'one_step' and type = 'redemption' and status in ('pending', 'accepted')`,
      [body.investorId, body.shareClassId],
    );
    const promised = new Dec(reserved.rows[0].reserved);
    if (tokenCount.greaterThan(balance.minus(promised))) return refuse(400, 'tokenCount exceeds holdings');
    const lockup = Number(p.sub_redemption?.lockup) || 0;
    if (lockup > 0) {
      const lots = await client.query(
        `select remaining::text, settled_at from holding_lot where investor_id = $1 and share_class_id = $2 and remaining > 0 order by settled_at`,
        [body.investorId, body.shareClassId],
      );
      let inLots = new Dec(0);
      let unlocked = new Dec(0);
      for (const lot of lots.rows) {
        inLots = inLots.plus(lot.remaining);
        if (lot.settled_at.getTime() + lockup * 86_400_000 <= now.getTime()) unlocked = unlocked.plus(lot.remaining);
      }
      unlocked = unlocked.plus(Dec.max(0, balance.minus(inLots)));
      if (tokenCount.plus(promised).greaterThan(unlocked)) return refuse(400, 'tokens are locked up');
    }
    const o = await placeOneStep(client, req, body, dates, { type: 'redemption', token_count: tokenCount.toFixed(), currency: p.currency });
    await client.query('commit');
    ok(res, oneStepRecord(o));
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
      where exists (select 1 from ops_token where token_hash = $1 and revoked_at is null and expires_at > now())
        and ($2::text is null or o.distributor_id = $2) and ($3::text is null or o.status = $3)
      order by o.created_at desc, o.id desc limit $4`,
    [hash(token), distributorId, status, limit],
  );
  // The columns the operation selected (by their camelCase names), as the GraphQL answer holds them.
  const wanted = (k: string) => (q.has(k) ? new Set(q.get(k)!.split(',')) : null);
  const [orderFields, investorFields, shareClassFields] = [wanted('order'), wanted('investor'), wanted('shareClass')];
  const camel = (r: Row, only: Set<string> | null) => {
    const out: Row = {};
    for (const [k, v] of Object.entries(r)) {
      const name = k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      if (!only || only.has(name)) out[name] = v instanceof Date ? v.getTime() : v;
    }
    return out;
  };
  const items = rows.map(({ investor, share_class, ...o }) => ({
    ...camel(o, orderFields),
    investor: camel(investor, investorFields),
    shareClass: camel(share_class, shareClassFields),
  }));
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
  // The two-step flow is the body with `amountSubscription`; the one-step flow sends `amount`.
  else if (req.method === 'POST' && path === '/api/v1/orders/subscribe')
    work = readJson(req).then((b) => ('amountSubscription' in b ? subscribe(req, res, b) : subscribeOneStep(req, res, b)));
  else if (req.method === 'POST' && path === '/api/v1/orders/redeem') work = readJson(req).then((b) => redeemOneStep(req, res, b));
  else if (req.method === 'GET' && (m = /^\/api\/v1\/orders\/subscriptions\/(distributor|investor)\/([^/]+)$/.exec(path)))
    work = twoStepOrders(req, res, m[1] === 'distributor' ? 'distributor_id' : 'investor_id', m[2], url.searchParams.get('status'));
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
