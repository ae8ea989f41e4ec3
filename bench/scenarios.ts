/**
 * The scenarios and, for each, what every contender sends. The REST facade is probed over HTTP
 * (a `no route` 404 means the route is not on this build); the GraphQL contender runs the very
 * operation the REST route runs in-process (its row's document and variables, from the route
 * table), over HTTP with an ops token, so the two differ only by the transport. Whatever is not
 * on this build is reported as skipped and starts being measured once it lands.
 */
import { print } from 'graphql';
import type { IntrospectionQuery } from 'graphql';
import { request } from 'node:http';
import { SURFACE_R } from '../rest-compat/surface-r';
import type { RestRequest, RestRoute } from '../rest-compat/route';
import { HOT_DISTRIBUTOR, HOT_HOST, HOT_INVESTOR, HOT_SHARE_CLASS, HOUR_MS, LIST_STATUS, OPS_TOKEN, hotTwoStepOrderIds } from './dataset';
import { buildOrdersPage } from './graphql-page';

/** Replaced in a request body by a number unique within the run. */
export const SEQ = '{{seq}}';
const RUN = Date.now().toString(36);
let probeSeq = 0;

export type ContenderName = 'baseline' | 'rest' | 'graphql';
export const CONTENDERS: ContenderName[] = ['baseline', 'rest', 'graphql'];

export interface HttpCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Rotated through, request after request. */
  requests: { path: string; body?: string }[];
}

export type Plan =
  { state: 'ready'; call: HttpCall; bytes: number } | { state: 'skipped'; reason: string } | { state: 'failed'; reason: string } | { state: 'n/a' };

export interface Scenario {
  key: string;
  title: string;
  plans: Record<ContenderName, Plan>;
  /** Differences between the data the baseline writes and the facade's (field names), if any. */
  shapeNotes: string[];
}

interface Target {
  key: string;
  title: string;
  method: 'GET' | 'POST';
  /** REST paths under /api/v1, rotated. */
  paths: string[];
  body?: Record<string, unknown>;
  /** Baseline path when it is not the REST path (the GraphQL-only page). */
  baselinePaths?: string[];
  /** GraphQL-only scenario: built from the schema. */
  graphqlOnly?: boolean;
}

export interface ScenarioOptions {
  orders: number;
  /** Scale mode keeps the reads whose cost may grow with the book (lists, order by id, NAV history). */
  scale: boolean;
  /** `publishedAt` of the newest NAV. */
  lastNavAt: number;
}

export function targets(opts: ScenarioOptions): Target[] {
  const orderIds = hotTwoStepOrderIds(opts.orders);
  const main: Target[] = [
    { key: 'shareclass', title: 'GET /funds/shareclass/:id', method: 'GET', paths: [`/funds/shareclass/${HOT_SHARE_CLASS}`] },
    { key: 'nav-live', title: 'GET /funds/shareclass/nav/live', method: 'GET', paths: [`/funds/shareclass/nav/live?shareClassId=${HOT_SHARE_CLASS}`] },
    { key: 'order-by-id', title: 'GET /orders/:id', method: 'GET', paths: orderIds.map((id) => `/orders/${id}`) },
    {
      key: 'subscribe',
      title: 'POST /orders/subscribe (two-step)',
      method: 'POST',
      paths: ['/orders/subscribe'],
      // A fresh externalRef per request ({{seq}}, see SEQ), in case the flow refuses a repeated one.
      body: {
        distributorId: HOT_DISTRIBUTOR,
        investorId: HOT_INVESTOR,
        shareClassId: HOT_SHARE_CLASS,
        amountSubscription: 1000,
        externalRef: `bench-${RUN}-${SEQ}`,
      },
    },
    {
      key: 'subscribe-1',
      title: 'POST /orders/subscribe (one-step, amount)',
      method: 'POST',
      paths: ['/orders/subscribe'],
      body: { distributorId: HOT_DISTRIBUTOR, investorId: HOT_INVESTOR, shareClassId: HOT_SHARE_CLASS, amount: 1000 },
    },
    {
      key: 'redeem-1',
      title: 'POST /orders/redeem (one-step, tokenCount)',
      method: 'POST',
      paths: ['/orders/redeem'],
      // One token: a whole run reserves a few thousand of the hot holding (HOT_HOLDING).
      body: { distributorId: HOT_DISTRIBUTOR, investorId: HOT_INVESTOR, shareClassId: HOT_SHARE_CLASS, tokenCount: 1 },
    },
    {
      key: 'orders-list',
      title: `GET /orders/subscriptions/distributor/:id?status=${LIST_STATUS}`,
      method: 'GET',
      paths: [`/orders/subscriptions/distributor/${HOT_DISTRIBUTOR}?status=${LIST_STATUS}`],
    },
    {
      key: 'orders-list-investor',
      title: `GET /orders/subscriptions/investor/:id?status=${LIST_STATUS}`,
      method: 'GET',
      paths: [`/orders/subscriptions/investor/${HOT_INVESTOR}?status=${LIST_STATUS}`],
    },
    {
      key: 'orders-page',
      title: 'GraphQL orders page of 100 with investor and shareClass',
      method: 'POST',
      paths: [],
      graphqlOnly: true,
      baselinePaths: [`/bench/orders-page?distributorId=${HOT_DISTRIBUTOR}&limit=100`],
    },
  ];
  const day = { start: opts.lastNavAt - 2 * 24 * HOUR_MS, end: opts.lastNavAt - 24 * HOUR_MS };
  const navHistory: Target[] = [
    {
      key: 'nav-history-100',
      title: 'GET /funds/shareclass/nav/history (last 100)',
      method: 'GET',
      paths: [`/funds/shareclass/nav/history?shareClassId=${HOT_SHARE_CLASS}`],
    },
    {
      key: 'nav-history-day',
      title: 'GET /funds/shareclass/nav/history (one-day range)',
      method: 'GET',
      paths: [`/funds/shareclass/nav/history?shareClassId=${HOT_SHARE_CLASS}&startDate=${day.start}&endDate=${day.end}`],
    },
  ];
  if (!opts.scale) return [...main, ...navHistory];
  // The writes too: placing an order must not slow down as the book grows (its indexes do).
  const keep = new Set(['order-by-id', 'subscribe', 'subscribe-1', 'redeem-1', 'orders-list', 'orders-list-investor']);
  return [...main.filter((t) => keep.has(t.key)), ...navHistory];
}

// ---- probing --------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: any;
  bytes: number;
}

export function send(port: number, call: HttpCall, index = 0): Promise<Answer> {
  const { path, body: template } = call.requests[index % call.requests.length];
  const body = template?.split(SEQ).join(`p${probeSeq++}`);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: call.method, path, headers: { ...call.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          let body: unknown = raw;
          try {
            body = JSON.parse(raw);
          } catch {
            /* kept as text */
          }
          resolve({ status: res.statusCode ?? 0, body, bytes: Buffer.byteLength(raw) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const restHeaders = (t: Target): Record<string, string> => ({ host: HOT_HOST, ...(t.body ? { 'content-type': 'application/json' } : {}) });

function routeFor(t: Target, path: string): { route: RestRoute; req: RestRequest } | null {
  const url = new URL(path, 'http://x');
  for (const route of SURFACE_R) {
    if (route.method !== t.method) continue;
    const keys: string[] = [];
    const pattern = new RegExp(
      `^${route.path
        .split('/')
        .map((seg) => (seg.startsWith(':') ? (keys.push(seg.slice(1)), '([^/]+)') : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    );
    const m = pattern.exec(url.pathname);
    if (!m) continue;
    const params = Object.fromEntries(keys.map((k, i) => [k, decodeURIComponent(m[i + 1])]));
    const req: RestRequest = { params, query: Object.fromEntries(url.searchParams), body: t.body ?? {}, headers: restHeaders(t) };
    if (route.when && !route.when(req)) continue;
    return { route, req };
  }
  return null;
}

/** Field paths of a JSON value (arrays through their first element). */
function shape(value: unknown, prefix = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) return value.length ? shape(value[0], `${prefix}[]`, out) : out;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // statusHistory is a map keyed by timestamps: compare its entries' fields only.
      const key = /^\d{10,}$/.test(k) ? '<at>' : k;
      out.add(`${prefix}.${key}`);
      shape(v, `${prefix}.${key}`, out);
    }
  }
  return out;
}

function compareShapes(a: unknown, b: unknown): string[] {
  const sa = shape(a);
  const sb = shape(b);
  const onlyBaseline = [...sa].filter((k) => !sb.has(k));
  const onlyRest = [...sb].filter((k) => !sa.has(k));
  const notes: string[] = [];
  if (onlyBaseline.length) notes.push(`baseline only: ${onlyBaseline.join(', ')}`);
  if (onlyRest.length) notes.push(`facade only: ${onlyRest.join(', ')}`);
  return notes;
}

export interface Ports {
  baseline: number;
  gateway: number;
}

/** Probes every contender once and decides what is measured. */
export async function planScenarios(ports: Ports, opts: ScenarioOptions, introspection: IntrospectionQuery | null): Promise<Scenario[]> {
  const out: Scenario[] = [];
  for (const t of targets(opts)) {
    const plans = {} as Record<ContenderName, Plan>;
    let shapeNotes: string[] = [];
    const body = t.body ? JSON.stringify(t.body) : undefined;

    if (t.graphqlOnly) {
      plans.rest = { state: 'n/a' };
      const op = buildOrdersPage(introspection, { distributorId: HOT_DISTRIBUTOR, size: 100 });
      if (typeof op === 'string') {
        plans.graphql = { state: 'skipped', reason: `not available on this build (${op})` };
      } else {
        const call: HttpCall = {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${OPS_TOKEN}` },
          requests: [{ path: '/graphql', body: JSON.stringify({ query: op.query, variables: op.variables }) }],
        };
        const a = await send(ports.gateway, call);
        let items: unknown = a.body?.data;
        for (const k of op.itemsPath) items = (items as Record<string, unknown> | undefined)?.[k];
        plans.graphql =
          a.status === 200 && !a.body?.errors && Array.isArray(items)
            ? { state: 'ready', call, bytes: a.bytes }
            : { state: 'failed', reason: `probe answered ${a.status}: ${JSON.stringify(a.body?.errors ?? a.body).slice(0, 300)}` };
        const fields = Object.entries(op.fields)
          .map(([k, v]) => `&${k}=${v.join(',')}`)
          .join('');
        t.baselinePaths = [`/bench/orders-page?limit=100${op.filter.distributorId === null ? '' : `&distributorId=${HOT_DISTRIBUTOR}`}${fields}`];
      }
    } else {
      const call: HttpCall = { method: t.method, headers: restHeaders(t), requests: t.paths.map((p) => ({ path: `/api/v1${p}`, body })) };
      const a = await send(ports.gateway, call);
      if (a.status === 404 && typeof a.body?.errorMsg === 'string' && a.body.errorMsg.startsWith('no route')) {
        plans.rest = { state: 'skipped', reason: 'not available on this build (no route)' };
      } else if (a.status >= 200 && a.status < 300 && a.body?.isError === false) {
        plans.rest = { state: 'ready', call, bytes: a.bytes };
      } else {
        plans.rest = { state: 'failed', reason: `probe answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}` };
      }

      const found = routeFor(t, t.paths[0]);
      if (!found) {
        plans.graphql = { state: 'skipped', reason: 'not available on this build (no REST operation to mirror)' };
      } else {
        const query = print(found.route.document);
        const gqlCall: HttpCall = {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${OPS_TOKEN}` },
          // Rotated paths (order ids) become rotated variables of the same operation.
          requests: t.paths.map((p) => {
            const r = routeFor(t, p);
            return { path: '/graphql', body: JSON.stringify({ query, variables: r ? r.route.variables(r.req) : {} }) };
          }),
        };
        const g = await send(ports.gateway, gqlCall);
        plans.graphql =
          g.status === 200 && !g.body?.errors && g.body?.data
            ? { state: 'ready', call: gqlCall, bytes: g.bytes }
            : { state: 'failed', reason: `probe answered ${g.status}: ${JSON.stringify(g.body?.errors ?? g.body).slice(0, 300)}` };
      }
    }

    const baseCall: HttpCall = {
      method: t.graphqlOnly ? 'GET' : t.method,
      headers: t.graphqlOnly ? { authorization: `Bearer ${OPS_TOKEN}` } : restHeaders(t),
      requests: (t.baselinePaths ?? t.paths.map((p) => `/api/v1${p}`)).map((path) => ({ path, body: t.graphqlOnly ? undefined : body })),
    };
    // In scale mode the baseline runs alone too: its SQL shows how the same indexes hold at size.
    const anyProject = plans.rest.state === 'ready' || plans.graphql.state === 'ready';
    if (!anyProject && !opts.scale) {
      plans.baseline = { state: 'skipped', reason: 'nothing of the project to compare with on this build' };
    } else {
      const b = await send(ports.baseline, baseCall);
      plans.baseline =
        b.status >= 200 && b.status < 300
          ? { state: 'ready', call: baseCall, bytes: b.bytes }
          : { state: 'failed', reason: `probe answered ${b.status}: ${JSON.stringify(b.body).slice(0, 300)}` };
      if (plans.rest.state === 'ready' && plans.baseline.state === 'ready') {
        const r = await send(ports.gateway, plans.rest.call);
        shapeNotes = compareShapes(b.body?.data, r.body?.data);
      }
    }
    out.push({ key: t.key, title: t.title, plans, shapeNotes });
  }
  return out;
}
