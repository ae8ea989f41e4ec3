import type { SupplyProvidersConfig } from '../supply/provider';
import { isDevelopmentEnv } from './environment';
import { textSecretWeakness, weakSecret } from './secret-strength';

/** SUPPLY_PROVIDERS: provider id → { url, timeoutMs?, apiKey?, callbackSecret? }, every mistake named. */
export function parseSupplyProviders(raw: string | undefined, appEnv: string, problems: string[]): SupplyProvidersConfig {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push('SUPPLY_PROVIDERS must be a JSON object of provider id to {url, timeoutMs, apiKey, callbackSecret}');
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push('SUPPLY_PROVIDERS must be a JSON object of provider id to {url, timeoutMs, apiKey, callbackSecret}');
    return {};
  }
  const out: SupplyProvidersConfig = {};
  for (const [id, value] of Object.entries(parsed as Record<string, unknown>)) {
    const at = `SUPPLY_PROVIDERS.${id}`;
    if (!/^[a-z0-9][a-z0-9._-]{0,62}$/i.test(id)) problems.push(`SUPPLY_PROVIDERS key "${id}" must be a simple provider id`);
    const v = (value ?? {}) as Record<string, unknown>;
    if (typeof v.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(v.url)) problems.push(`${at}.url must be an http(s) URL`);
    const timeoutMs = v.timeoutMs === undefined ? 10_000 : v.timeoutMs;
    if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 50 || timeoutMs > 120_000)
      problems.push(`${at}.timeoutMs must be an integer from 50 to 120000`);
    if (v.apiKey !== undefined && (typeof v.apiKey !== 'string' || v.apiKey === '')) problems.push(`${at}.apiKey must be a non-empty string`);
    if (v.callbackSecret !== undefined && (typeof v.callbackSecret !== 'string' || v.callbackSecret.length < 16))
      problems.push(`${at}.callbackSecret must be a string of at least 16 characters`);
    else if (typeof v.callbackSecret === 'string' && !isDevelopmentEnv(appEnv)) {
      // The provider signs its callbacks with it: a guessable one lets anyone settle an order.
      const why = textSecretWeakness(v.callbackSecret, 16);
      if (why) problems.push(weakSecret(`${at}.callbackSecret`, why));
    }
    out[id] = {
      url: String(v.url),
      timeoutMs: Number(timeoutMs),
      apiKey: v.apiKey as string | undefined,
      callbackSecret: v.callbackSecret as string | undefined,
    };
  }
  return out;
}
