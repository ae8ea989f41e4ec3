import { Client, type ClientConfig } from 'pg';
import { OutageLog } from '../common/outage-log';

/** What the owner of a connection does while it is away (logged as "… (LISTEN <channel>; <meanwhile>)"). */
export interface ListenOptions {
  /** How the owner copes meanwhile; default "polling meanwhile". */
  meanwhile?: string;
  /** Told each time the connection is up and listening, and each time it is lost or closed. */
  onState?: (listening: boolean) => void;
}

/**
 * A connection that LISTENs on one channel of a PostgreSQL server and comes back by itself: lost,
 * it is logged once (OutageLog) and reopened with backoff, and `onNotify` is called once it is
 * back (what was notified meanwhile is found by a pass). Its owner polls meanwhile, so a missing
 * LISTEN delays work by a poll, never loses it. `close()` stops at once, reconnecting or not.
 */
export class ListenConnection {
  private client: Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly outage: OutageLog;

  constructor(
    private readonly connection: ClientConfig,
    private readonly channel: string,
    private readonly onNotify: () => void,
    what: string,
    private readonly options: ListenOptions = {},
  ) {
    this.outage = new OutageLog(`${what} (LISTEN ${channel}; ${options.meanwhile ?? 'polling meanwhile'})`, 1000);
  }

  /** Opens the connection; resolves whether or not it could (it keeps trying then). */
  async open(): Promise<void> {
    if (this.closed) return;
    const client = new Client(this.connection);
    client.on('notification', () => this.onNotify());
    client.on('error', (err) => this.lost(client, err));
    try {
      await client.connect();
      await client.query(`listen ${this.channel}`);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.closed) return void (await endQuickly(client));
    this.client = client;
    this.options.onState?.(true);
    if (this.outage.isDown) this.onNotify();
    this.outage.back();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    this.options.onState?.(false);
    if (client) await endQuickly(client);
  }

  private lost(client: Client, err: unknown): void {
    if (this.client === client) this.client = null;
    this.options.onState?.(false);
    void endQuickly(client);
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.open();
    }, this.outage.lost(err));
    this.retry.unref();
  }
}

/** Ends a client without waiting on a server that is away: at most a second. */
async function endQuickly(client: Client): Promise<void> {
  await Promise.race([client.end().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
}
