import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { X509Certificate } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Clock } from '../../src/common/clock';

/**
 * A real HTTPS webhook receiver for tests: a certificate made here, signed by a CA made here,
 * whose PEM file the gateway is told to trust (WEBHOOK_CA_FILE).
 */
export interface TestCertificates {
  caFile: string;
  /** The CA's own certificate (PEM). */
  caCert: string;
  key: string;
  cert: string;
  /** A client certificate signed by the CA (surface-R host bindings), and its SHA-256 fingerprint in lower-case hex. */
  client: { key: string; cert: string; sha256: string };
  cleanup(): void;
}

export async function makeCertificates(): Promise<TestCertificates> {
  const ca = await generate([{ name: 'commonName', value: 'Gateway Test CA' }], {
    keySize: 2048,
    algorithm: 'sha256',
    days: 2,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  } as never);
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    days: 2,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  } as never);
  const client = await generate([{ name: 'commonName', value: 'distributor-a' }], {
    keySize: 2048,
    algorithm: 'sha256',
    days: 2,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  } as never);
  const sha256 = new X509Certificate(client.cert).fingerprint256.replace(/:/g, '').toLowerCase();
  const dir = mkdtempSync(join(tmpdir(), 'gw-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, ca.cert);
  return {
    caFile,
    caCert: ca.cert,
    key: leaf.private,
    cert: leaf.cert,
    client: { key: client.private, cert: client.cert, sha256 },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** Requests open at this receiver when this one arrived (itself included). */
  concurrent: number;
  /** Epoch ms of arrival by the receiver's clock (the gateway's clock in tests that move it). */
  receivedAt: number;
}

export type Responder = (r: Received) => { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export class WebhookReceiver {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 200 });
  /** The time receivers check `webhook-timestamp` against; tests that move the gateway's clock set it. */
  clock: Clock = { now: () => new Date() };
  private server!: Server;
  private open = 0;
  private readonly hung = new Set<() => void>();
  port = 0;

  static async start(certs: TestCertificates): Promise<WebhookReceiver> {
    const r = new WebhookReceiver();
    r.server = createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      r.open++;
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(body);
        } catch {
          /* not JSON */
        }
        const rec: Received = { path: req.url ?? '', headers: req.headers, body, json, concurrent: r.open, receivedAt: r.clock.now().getTime() };
        r.received.push(rec);
        const answer = r.respond(rec);
        const finish = (status: number, headers: Record<string, string> = {}) => {
          r.open--;
          res.writeHead(status, headers).end('ok');
        };
        if (answer === 'hang') {
          const release = () => finish(200);
          r.hung.add(release);
          res.on('close', () => {
            if (r.hung.delete(release)) r.open--;
          });
          return;
        }
        if (answer.delayMs) setTimeout(() => finish(answer.status, answer.headers), answer.delayMs);
        else finish(answer.status, answer.headers);
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    r.port = (r.server.address() as AddressInfo).port;
    return r;
  }

  url(path = '/hook'): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  reset(): void {
    this.received.length = 0;
    this.respond = () => ({ status: 200 });
  }

  /** Waits (polling, real time) until `pred` holds of what arrived. */
  async waitFor(pred: (all: Received[]) => boolean, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.received)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met; got ${this.received.length} requests: ${this.received.map((r) => r.body).join('\n')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received;
  }

  async close(): Promise<void> {
    for (const release of this.hung) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Verifies a delivery with the `standardwebhooks` library: signature with its own code; the
 * timestamp's 5-minute tolerance is checked against the time the request arrived by the
 * receiver's clock (the library would use the real time, which tests that move the gateway's
 * clock leave behind).
 */
export function verifyDelivery(secret: string, r: Received): any {
  const wh = new StandardWebhook(secret);
  (wh as unknown as { verifyTimestamp: (h: string) => Date }).verifyTimestamp = (header: string) => {
    const ts = parseInt(header, 10);
    if (Number.isNaN(ts) || Math.abs(r.receivedAt / 1000 - ts) > 300) throw new Error('Message timestamp out of tolerance');
    return new Date(ts * 1000);
  };
  return wh.verify(r.body, r.headers as Record<string, string>);
}
