import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small load balancer for the drills, on loopback: requests go round-robin to the gateways
 * whose `/ready` answered 200 at the last check (every `checkMs`), each over a fresh connection.
 * A request is tried on another gateway only when its connection was refused, i.e. before
 * anything was sent; a gateway lost after the request was sent answers 503 (the outcome is
 * unknown to the proxy, as to any load balancer), never a retry.
 */
export class RoundRobinProxy {
  private server!: Server;
  private timer!: NodeJS.Timeout;
  private next = 0;
  /** Readiness of each backend, by index. */
  readonly ready: boolean[];
  /** The latest check asked of each backend: an older answer arriving late never overwrites a newer one. */
  private readonly asked: number[];
  /** Requests tried again on another gateway after a refused connection. */
  retried = 0;
  port = 0;

  private constructor(readonly backends: number[]) {
    this.ready = backends.map(() => false);
    this.asked = backends.map(() => 0);
  }

  static async start(backends: number[], checkMs = 100): Promise<RoundRobinProxy> {
    const p = new RoundRobinProxy(backends);
    p.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void p.forward(req, Buffer.concat(chunks)).then(({ status, headers, body }) => {
          res.writeHead(status, headers).end(body);
        });
      });
    });
    await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
    p.port = (p.server.address() as AddressInfo).port;
    await p.check();
    p.timer = setInterval(() => void p.check(), checkMs);
    return p;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Reads every backend's `/ready`: 200 keeps it in rotation; 503 (draining, database away) or no answer takes it out. */
  private async check(): Promise<void> {
    await Promise.all(
      this.backends.map(async (port, i) => {
        const asked = ++this.asked[i];
        const r = await send(port, { method: 'GET', url: '/ready', headers: {} }, Buffer.alloc(0), 1000).catch(() => null);
        if (asked === this.asked[i]) this.ready[i] = r?.status === 200;
      }),
    );
  }

  private async forward(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, body: Buffer): Promise<Answer> {
    const order = this.backends.map((_, k) => (this.next + k) % this.backends.length);
    this.next = (this.next + 1) % this.backends.length;
    // Those in rotation first; the others only if none is (a refused connection costs nothing).
    const tries = [...order.filter((i) => this.ready[i]), ...order.filter((i) => !this.ready[i])];
    for (const [attempt, i] of tries.entries()) {
      try {
        if (attempt > 0) this.retried++;
        return await send(this.backends[i], req, body, 30_000);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
          this.ready[i] = false; // until its next check says otherwise
          continue;
        }
        return unavailable(`upstream lost: ${(err as Error).message}`);
      }
    }
    return unavailable('no gateway available');
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const unavailable = (message: string): Answer => ({
  status: 503,
  headers: { 'content-type': 'application/json', 'retry-after': '1', 'x-proxy': 'drill' },
  body: Buffer.from(JSON.stringify({ isError: true, errorMsg: message, data: {} })),
});

function send(port: number, req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, body: Buffer, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { connection: _c, 'keep-alive': _k, ...headers } = req.headers;
    const out = request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.url,
        headers: { ...headers, 'content-length': String(body.length) },
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 502,
            headers: { 'content-type': res.headers['content-type'], ...(res.headers['retry-after'] && { 'retry-after': res.headers['retry-after'] }) },
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    out.on('timeout', () => out.destroy(new Error('upstream timed out')));
    out.on('error', reject);
    out.end(body);
  });
}
