import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one JSON-RPC call: pass it on, pass it on and hold the answer, or swallow it. */
export type ProxyAction = 'forward' | 'forward-and-hang' | 'hang' | 'down';

/**
 * A JSON-RPC proxy between a gateway and its chain, for drills: each call's method goes through
 * `decide`, which may let it pass, swallow it (the gateway never hears back), or answer as if the
 * node were down. `seen` records the methods that came through.
 */
export class RpcProxy {
  decide: (method: string, params: unknown[]) => ProxyAction = () => 'forward';
  readonly seen: string[] = [];
  private constructor(
    private readonly server: Server,
    private readonly target: URL,
  ) {}

  static async start(targetUrl: string): Promise<RpcProxy> {
    // The handler reads `proxy` only when a request arrives, by which time it is set.
    const server = createServer((req, res) => proxy.handle(req, res));
    const proxy = new RpcProxy(server, new URL(targetUrl));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let calls: { method: string; params: unknown[] }[] = [];
      try {
        const parsed = JSON.parse(body.toString());
        calls = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        /* forwarded as is */
      }
      const actions = calls.map((c) => {
        this.seen.push(c.method);
        return this.decide(c.method, c.params ?? []);
      });
      if (actions.includes('down')) {
        res.socket?.destroy();
        return;
      }
      if (actions.includes('hang')) return; // never answered
      const hang = actions.includes('forward-and-hang');
      const out = request(this.target, { method: 'POST', headers: { 'content-type': 'application/json' } }, (up) => {
        const parts: Buffer[] = [];
        up.on('data', (c) => parts.push(c));
        up.on('end', () => {
          if (hang) return;
          res.writeHead(up.statusCode ?? 200, { 'content-type': 'application/json' });
          res.end(Buffer.concat(parts));
        });
      });
      out.on('error', () => res.socket?.destroy());
      out.end(body);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}
