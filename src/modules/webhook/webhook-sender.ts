import { Agent, request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Clock } from '../../common/clock';
import { logger } from '../../common/logger';
import { EndpointGuard, ForbiddenAddress, type ResolvedAddress } from './endpoint-guard';
import type { Webhook } from './webhook.entity';
import { decryptSecret, signatureHeader } from './webhook-secret';

/** What one HTTP attempt came to. */
export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  success: boolean;
  error: string | null;
  /** From `Retry-After` on 429 or 503. */
  retryAfterMs: number | null;
  /** 410 Gone: the receiver asks us to stop. */
  gone: boolean;
}

export interface SenderOptions {
  timeoutMs: number;
  guard: EndpointGuard;
  /** Extra CA certificates (PEM) trusted besides the system roots. */
  extraCa: string | null;
  secretKey: Buffer;
}

const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/**
 * Sends one signed attempt (Standard Webhooks headers) to a webhook's endpoint: resolves the name,
 * refuses forbidden addresses, pins the connection to the checked address, verifies TLS (system
 * roots plus the configured CA), follows no redirect and gives up after the timeout.
 */
export class WebhookSender {
  private readonly ca: string[] | undefined;
  /**
   * Keeps TLS connections open between attempts to the same endpoint. A kept connection goes to
   * an address that passed the check when it was opened; every attempt still resolves and checks
   * the name first, so an endpoint re-pointed at a forbidden address is refused before sending.
   */
  private readonly agent = new Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16, maxFreeSockets: 4, timeout: 30_000 });

  constructor(
    private readonly options: SenderOptions,
    private readonly clock: Clock,
  ) {
    this.ca = options.extraCa ? [...rootCertificates, options.extraCa] : undefined;
  }

  close(): void {
    this.agent.destroy();
  }

  /** The secrets deliveries are signed with now: the current one, and the previous during its overlap. */
  secrets(webhook: Webhook, now: Date): string[] {
    const secrets = [decryptSecret(this.options.secretKey, webhook.secretCipher)];
    if (webhook.previousSecretCipher && webhook.previousSecretUntil && webhook.previousSecretUntil > now) {
      secrets.push(decryptSecret(this.options.secretKey, webhook.previousSecretCipher));
    }
    return secrets;
  }

  /**
   * `shutdown` ends the attempt when aborted (the delivery worker's stop: it records a failure and
   * is retried later); an attempt a request makes (a test delivery) is left to the requests' drain.
   */
  async send(webhook: Webhook, msg: { eventId: string; body: string }, shutdown?: AbortSignal): Promise<AttemptOutcome> {
    const started = process.hrtime.bigint();
    const latency = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    const failed = (error: string, statusCode: number | null = null, cause?: unknown): AttemptOutcome => {
      // The network's own words (addresses, ports, resolver and TLS details) go to the log only.
      if (cause) logger.info({ webhookId: webhook.id, err: (cause as Error).message }, `webhook attempt failed: ${error}`);
      return { statusCode, latencyMs: latency(), success: false, error, retryAfterMs: null, gone: false };
    };
    let url: URL;
    try {
      url = new URL(webhook.endpointUrl);
    } catch {
      return failed('invalid endpoint_url');
    }
    if (url.protocol !== 'https:') return failed('endpoint_url must be HTTPS');
    let pinned: ResolvedAddress;
    try {
      [pinned] = await this.options.guard.resolve(url.hostname);
    } catch (err) {
      return failed(err instanceof ForbiddenAddress ? ENDPOINT_FAILURE.forbidden : ENDPOINT_FAILURE.unresolved, null, err);
    }
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(msg.body)),
      'user-agent': 'fund-distribution-gateway-webhooks/1',
      'webhook-id': msg.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(this.secrets(webhook, now), msg.eventId, timestamp, msg.body),
    };
    // The connection goes to the address just checked, whatever DNS says a moment later.
    const lookup = ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
      if (opts?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
      else cb(null, pinned.address, pinned.family);
    }) as unknown as LookupFunction;

    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const done = (o: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        shutdown?.removeEventListener('abort', end);
        resolve(o);
      };
      const req = request(
        url,
        { method: 'POST', headers, lookup, ca: this.ca, agent: this.agent, servername: isIpLiteral(url.hostname) ? undefined : url.hostname },
        (res) => {
          const status = res.statusCode ?? 0;
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > 64 * 1024) res.destroy(); // the answer's body is not needed
          });
          const finish = () => {
            const success = status >= 200 && status < 300;
            done({
              statusCode: status,
              latencyMs: latency(),
              success,
              error: success ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`,
              retryAfterMs: status === 429 || status === 503 ? parseRetryAfter(res.headers['retry-after'], now) : null,
              gone: status === 410,
            });
          };
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
        },
      );
      const end = () => req.destroy(new ShuttingDown(ENDPOINT_FAILURE.shutdown));
      if (shutdown?.aborted) end();
      else shutdown?.addEventListener('abort', end, { once: true });
      const timer = setTimeout(() => {
        req.destroy(new TimedOut(`timed out after ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      req.on('error', (err) => done(failed(connectionFailure(err), null, err)));
      req.end(msg.body);
    });
  }
}

/**
 * What an attempt that got no HTTP answer records and `testWebhook` tells its caller: a reason
 * from this fixed set, never the network's raw message (which names addresses and ports inside
 * the gateway's network, and would make the endpoint field a port scanner).
 */
export const ENDPOINT_FAILURE = {
  forbidden: 'endpoint address is not allowed',
  unresolved: 'endpoint host does not resolve',
  timedOut: 'endpoint did not answer in time',
  tls: 'TLS handshake with the endpoint failed',
  connection: 'could not connect to the endpoint',
  shutdown: 'gateway shutting down',
} as const;

class TimedOut extends Error {}
class ShuttingDown extends Error {}

function connectionFailure(err: Error & { code?: string }): string {
  if (err instanceof TimedOut) return ENDPOINT_FAILURE.timedOut;
  if (err instanceof ShuttingDown) return ENDPOINT_FAILURE.shutdown;
  if (/CERT|SSL|TLS|SELF_SIGNED|HOSTNAME/i.test(err.code ?? '')) return ENDPOINT_FAILURE.tls;
  return ENDPOINT_FAILURE.connection;
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.startsWith('[');
}

/** `Retry-After` as seconds or an HTTP date, capped at a day. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Math.min(Number(v.trim()) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}
