import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test controls, to make a service (PostgreSQL, Redis) unreachable for a process
 * that reaches it through the proxy: `cut()` drops every open connection and refuses new ones,
 * as a server going down does; `trapNext()` drops one connection at one chosen message.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  private traps: Array<{ pattern: RegExp; when: 'before' | 'after'; sprung: () => void }> = [];

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    public port = 0,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.open();
    return proxy;
  }

  /** The URL with its host and port replaced by the proxy's. */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /**
   * Arms a one-shot trap on the next message a client sends that matches `pattern` (the
   * PostgreSQL protocol carries SQL as text): `before`, the connection is reset and the message
   * never reaches the server; `after`, the message reaches the server and the connection is reset
   * without its answer (a commit done, its answer lost). Resolves once sprung. Traps armed
   * together wait side by side, each for its own message.
   */
  trapNext(pattern: RegExp, when: 'before' | 'after'): Promise<void> {
    return new Promise((sprung) => {
      this.traps.push({ pattern, when, sprung });
    });
  }

  /** Accepts again, on the same port. */
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      let answering = true;
      const reset = () => {
        client.resetAndDestroy();
        upstream.destroy();
      };
      client.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        const trap = this.traps.find((t) => t.pattern.test(text));
        if (!trap) return void upstream.write(chunk);
        this.traps.splice(this.traps.indexOf(trap), 1);
        if (trap.when === 'before') return void (reset(), trap.sprung());
        // Sent, and the server given time to act on it; its answer never reaches the client.
        upstream.write(chunk);
        answering = false;
        setTimeout(() => (reset(), trap.sprung()), 300);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (answering) client.write(chunk);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Resets every open connection and refuses new ones until `open()`. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.resetAndDestroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.cut();
  }
}
