import { loadConfig } from '../../src/config';
import { minorUnits, priceSubscription } from '../../src/modules/order/order.pricing';
import { signPayload, verifySignature } from '../../src/supply/signature';
import { STRONG_KEYS } from '../support/production-keys';

describe('two-step pricing (decimal arithmetic)', () => {
  it("fees are exactly the description's formula, amount × bps / 10000, with no rounding; payable adds them", () => {
    expect(priceSubscription({ amount: '1000', feesSubBps: 10, nav: '1.25', tokenDecimals: 6 })).toEqual({
      amountFeesTotal: '1',
      amountPayable: '1001',
      amountTokensEstimated: '800',
      nav: '1.25',
    });
    expect(priceSubscription({ amount: '12345', feesSubBps: 15, nav: null, tokenDecimals: 6 })).toMatchObject({
      amountFeesTotal: '18.5175',
      amountPayable: '12363.5175',
    });
    expect(priceSubscription({ amount: '0.1', feesSubBps: 50, nav: null, tokenDecimals: 6 }).amountFeesTotal).toBe('0.0005');
    expect(priceSubscription({ amount: '1234.5', feesSubBps: 7, nav: null, tokenDecimals: 6 }).amountFeesTotal).toBe('0.86415');
  });

  it('has no binary-float drift: 0.1 + 0.2 style amounts stay exact', () => {
    const p = priceSubscription({ amount: '0.3', feesSubBps: 0, nav: '0.1', tokenDecimals: 18 });
    expect(p.amountTokensEstimated).toBe('3');
  });

  it('tokens are rounded down to the token decimals; no NAV, or a NAV of zero, leaves the order unpriced', () => {
    expect(priceSubscription({ amount: '2', feesSubBps: 0, nav: '3', tokenDecimals: 2 }).amountTokensEstimated).toBe('0.66');
    expect(priceSubscription({ amount: '2', feesSubBps: 0, nav: null, tokenDecimals: 2 })).toMatchObject({ nav: null, amountTokensEstimated: null });
    expect(priceSubscription({ amount: '2', feesSubBps: 0, nav: '0', tokenDecimals: 2 })).toMatchObject({ nav: null, amountTokensEstimated: null });
  });

  it('minor units come from ISO 4217, 6 for codes that are not ISO currencies', () => {
    expect(['USD', 'EUR', 'JPY', 'BHD', 'USDC'].map(minorUnits)).toEqual([2, 2, 0, 3, 6]);
  });
});

describe('provider callback signatures', () => {
  const secret = 'a-secret-of-enough-length';
  const now = new Date(2_000_000_000_000);
  it('verifies its own signature, and refuses another key, another body or a stale timestamp', () => {
    const body = Buffer.from('{"status":"accepted"}');
    expect(verifySignature(secret, signPayload(secret, now.getTime(), body), body, now)).toBe(true);
    expect(verifySignature(secret, signPayload('another-secret-value!!', now.getTime(), body), body, now)).toBe(false);
    expect(verifySignature(secret, signPayload(secret, now.getTime(), body), Buffer.from('{"status":"settled"}'), now)).toBe(false);
    expect(verifySignature(secret, signPayload(secret, now.getTime() - 6 * 60_000, body), body, now)).toBe(false);
    expect(verifySignature(secret, undefined, body, now)).toBe(false);
  });
});

describe('SUPPLY_PROVIDERS configuration', () => {
  it('reads providers by id with a default timeout', () => {
    const config = loadConfig({
      APP_ENV: 'development',
      SUPPLY_PROVIDERS: '{"supply-sim":{"url":"http://127.0.0.1:4100","callbackSecret":"0123456789abcdef"}}',
    });
    expect(config.supplyProviders).toEqual({
      'supply-sim': { url: 'http://127.0.0.1:4100', timeoutMs: 10_000, apiKey: undefined, callbackSecret: '0123456789abcdef' },
    });
    expect(config.supplySimulator).toBe(true); // development
    expect(
      loadConfig({
        APP_ENV: 'production',
        JWT_SIGNING_KEY: STRONG_KEYS.JWT_SIGNING_KEY,
        WEBHOOK_SECRET_KEY: STRONG_KEYS.WEBHOOK_SECRET_KEY,
        METRICS_TOKEN: 'metrics-token-0123456789',
        DATABASE_URL: 'postgres://gw@db/gw',
      }).supplySimulator,
    ).toBe(false);
  });

  it('names every mistake', () => {
    expect(() => loadConfig({ APP_ENV: 'development', SUPPLY_PROVIDERS: 'nope' })).toThrow(/SUPPLY_PROVIDERS must be a JSON object/);
    expect(() => loadConfig({ APP_ENV: 'development', SUPPLY_PROVIDERS: '{"p":{"url":"ftp://x","timeoutMs":5,"callbackSecret":"short"}}' })).toThrow(
      /SUPPLY_PROVIDERS.p.url must be an http\(s\) URL[\s\S]*SUPPLY_PROVIDERS.p.timeoutMs must be an integer from 50 to 120000[\s\S]*SUPPLY_PROVIDERS.p.callbackSecret must be a string of at least 16 characters/,
    );
  });
});
