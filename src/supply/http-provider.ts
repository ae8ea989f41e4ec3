import { logger } from '../common/logger';
import { SupplyUnavailableError, type SupplyOrderRequest, type SupplyProvider, type SupplyProviderConfig, type SupplySubmission } from './provider';

/** The most of a provider's answer we read; a larger one is a bad response, not a memory spike. */
const MAX_RESPONSE_BYTES = 256 * 1024;

/**
 * A provider spoken to over HTTP (Node's fetch), with one deadline for the whole exchange.
 *
 * Protocol: `POST <url>/orders` with the order as JSON.
 * - 2xx `{ orderReference }` → accepted;
 * - 4xx `{ reason }` (400, 404, 409, 422) → rejected with that reason (shown to the client);
 * - 401/403 (our credentials), other statuses, non-JSON, network errors, the deadline → unavailable.
 */
export class HttpSupplyProvider implements SupplyProvider {
  constructor(
    readonly id: string,
    private readonly config: SupplyProviderConfig,
  ) {}

  async submit(order: SupplyOrderRequest): Promise<SupplySubmission> {
    const request = { ...order } as Record<string, unknown>;
    const url = `${this.config.url.replace(/\/+$/, '')}/orders`;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': order.clientOrderId };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let status: number;
    let text: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(this.config.timeoutMs),
        redirect: 'error',
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { code?: string } };
      if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
        throw new SupplyUnavailableError(this.id, 'timeout', `no answer within ${this.config.timeoutMs} ms`);
      throw new SupplyUnavailableError(this.id, 'unreachable', e?.cause?.code ?? e?.message ?? 'network error');
    }
    if (Buffer.byteLength(text) > MAX_RESPONSE_BYTES) throw new SupplyUnavailableError(this.id, 'bad_response', 'response too large');
    let response: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      response = parsed as Record<string, unknown>;
    } catch {
      throw new SupplyUnavailableError(this.id, 'bad_response', `HTTP ${status} with a body that is not a JSON object`);
    }
    const exchange = { request, response };
    if (status >= 200 && status < 300 && typeof response.orderReference === 'string' && response.orderReference !== '') {
      return { outcome: 'accepted', orderReference: response.orderReference, exchange };
    }
    if ([400, 404, 409, 422].includes(status)) {
      const reason = typeof response.reason === 'string' && response.reason.trim() !== '' ? response.reason : `rejected by ${this.id} (HTTP ${status})`;
      return { outcome: 'rejected', reason, exchange };
    }
    if (status === 401 || status === 403) logger.error({ provider: this.id, status }, 'supply-side platform refused our credentials');
    throw new SupplyUnavailableError(this.id, 'bad_response', `HTTP ${status}`);
  }
}

/** The configured providers by id. */
export class SupplyRegistry {
  private readonly providers = new Map<string, SupplyProvider>();

  constructor(private readonly configs: Record<string, SupplyProviderConfig> = {}) {
    for (const [id, config] of Object.entries(configs)) this.providers.set(id, new HttpSupplyProvider(id, config));
  }

  get(id: string): SupplyProvider | null {
    return this.providers.get(id) ?? null;
  }

  /** The callback key of a provider, or null (then its callbacks are refused). */
  callbackSecret(id: string): string | null {
    return this.configs[id]?.callbackSecret ?? null;
  }

  /** The longest a push may talk to a provider: the claim lease is built on it. */
  timeoutMs(id: string): number {
    return this.configs[id]?.timeoutMs ?? 10_000;
  }
}
