import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPayload, SIGNATURE_HEADER } from './signature';

/**
 * A small stand-in for a supply-side platform, served over real HTTP so a push is a real network
 * exchange in development and in the tests.
 *
 * - `POST /orders` accepts an order of a fund it knows and answers `201 { orderReference }`;
 *   an order of a fund it does not know is refused `404 { reason: "Fund <fundId> not found" }`.
 *   `clientOrderId` is an idempotency key: a resend gets the same reference.
 * - `PUT /funds/:fundId` onboards a fund; `GET /health` answers ok.
 * - `POST /orders/:orderReference/outcome` `{ status, note?, reason?, transferHash? }` makes it call
 *   the gateway back with a signed outcome (accepted, rejected, settled, failed).
 *
 * Tests also drive it in-process: `hold()`/`release()` keep answers back, `delayMs` slows them,
 * `received` lists what arrived.
 */
export interface SimulatorOptions {
  providerId?: string;
  /** Fund ids it knows; `'any'` accepts every fund. */
  funds?: Iterable<string> | 'any';
  /** Where outcome callbacks go (the gateway's POST /supply/callbacks/<providerId>). */
  callbackUrl?: string;
  callbackSecret?: string;
  /** Stamps callback signatures; defaults to the wall clock. */
  now?: () => Date;
}

interface Received {
  body: Record<string, unknown>;
  headers: IncomingMessage['headers'];
}

/** What a test asks the supplier to answer an order with (`POST /orders/:ref/outcome`). */
type SimulatedOutcome = { status: string; note?: string; reason?: string; transferHash?: string };

export class SupplySimulator {
  readonly providerId: string;
  readonly received: Received[] = [];
  /** Extra latency of every answer, ms (tests use it to outlast the gateway's timeout). */
  delayMs = 0;
  callbackUrl: string | undefined;
  callbackSecret: string | undefined;
  private readonly funds: Set<string> | 'any';
  private readonly refs = new Map<string, { orderReference: string; clientOrderId: string }>();
  private readonly byReference = new Map<string, string>();
  private seq = 0;
  private held: Array<() => void> | null = null;
  private waiters: Array<() => void> = [];
  private server: Server | null = null;
  private readonly now: () => Date;

  constructor(options: SimulatorOptions = {}) {
    this.providerId = options.providerId ?? 'supply-sim';
    this.funds = options.funds === 'any' ? 'any' : new Set(options.funds ?? []);
    this.callbackUrl = options.callbackUrl;
    this.callbackSecret = options.callbackSecret;
    this.now = options.now ?? (() => new Date());
  }

  /** Starts on `host:port` (0 picks a free port); resolves with its base URL. */
  async start(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    return this.url;
  }

  get url(): string {
    const addr = this.server?.address() as AddressInfo | null;
    if (!addr) throw new Error('simulator not started');
    return `http://${addr.address}:${addr.port}`;
  }

  async stop(): Promise<void> {
    this.release();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  addFund(fundId: string): void {
    if (this.funds !== 'any') this.funds.add(fundId);
  }

  /** Keeps every answer back until `release()`. */
  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    held.forEach((go) => go());
  }

  /** Resolves once `count` orders have arrived in total. */
  async waitForOrders(count: number): Promise<void> {
    while (this.received.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** How many times an order was sent to it. */
  timesReceived(clientOrderId: string): number {
    return this.received.filter((r) => r.body.clientOrderId === clientOrderId).length;
  }

  referenceOf(clientOrderId: string): string | undefined {
    return this.refs.get(clientOrderId)?.orderReference;
  }

  /** Calls the gateway back with a signed outcome of an order it accepted. */
  async sendOutcome(orderReference: string, outcome: SimulatedOutcome): Promise<{ status: number; body: unknown }> {
    const clientOrderId = this.byReference.get(orderReference);
    if (!clientOrderId) throw new Error(`unknown order reference ${orderReference}`);
    if (!this.callbackUrl || !this.callbackSecret) throw new Error('callbackUrl and callbackSecret are not configured');
    const raw = JSON.stringify({ orderId: clientOrderId, orderReference, ...outcome });
    const t = this.now().getTime();
    const res = await fetch(this.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signPayload(this.callbackSecret, t, raw) },
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown>;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      return this.answer(res, 400, { status: 'rejected', reason: 'malformed JSON' });
    }
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/health') return this.answer(res, 200, { status: 'ok' });
    const fund = /^\/funds\/([^/]+)$/.exec(path);
    if (req.method === 'PUT' && fund) {
      this.addFund(decodeURIComponent(fund[1]));
      return this.answer(res, 200, { fundId: decodeURIComponent(fund[1]), known: true });
    }
    const outcome = /^\/orders\/([^/]+)\/outcome$/.exec(path);
    if (req.method === 'POST' && outcome) {
      try {
        const sent = await this.sendOutcome(decodeURIComponent(outcome[1]), body as SimulatedOutcome);
        return this.answer(res, 200, { delivered: sent.status, gateway: sent.body });
      } catch (err) {
        return this.answer(res, 400, { reason: (err as Error).message });
      }
    }
    if (req.method === 'POST' && path === '/orders') return this.order(body, req, res);
    return this.answer(res, 404, { reason: `no route ${req.method} ${path}` });
  }

  private async order(body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.received.push({ body, headers: req.headers });
    this.waiters.splice(0).forEach((w) => w());
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const clientOrderId = body.clientOrderId;
    const fundId = body.fundId;
    if (typeof clientOrderId !== 'string' || clientOrderId === '') return this.answer(res, 400, { status: 'rejected', reason: 'clientOrderId is required' });
    if (typeof fundId !== 'string' || fundId === '') return this.answer(res, 400, { status: 'rejected', reason: 'fundId is required' });
    if (this.funds !== 'any' && !this.funds.has(fundId)) return this.answer(res, 404, { status: 'rejected', reason: `Fund ${fundId} not found` });
    let ref = this.refs.get(clientOrderId);
    if (!ref) {
      ref = { orderReference: `SIM-${String(++this.seq).padStart(8, '0')}`, clientOrderId };
      this.refs.set(clientOrderId, ref);
      this.byReference.set(ref.orderReference, clientOrderId);
    }
    return this.answer(res, 201, { status: 'received', orderReference: ref.orderReference, clientOrderId, receivedAt: this.now().getTime() });
  }

  private answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
