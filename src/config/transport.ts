import { readFileSync } from 'node:fs';
import { coversEveryAddress, parseRange, PRIVATE_NETWORKS, withinPrivateNetwork, type IpRange } from '../common/cidr';
import { isDevelopmentEnv } from './environment';
import { readSecretFile } from './secret-file';

/**
 * Which peers may tell the gateway the client's address through `X-Forwarded-For` (rate limits,
 * the source ranges a bound surface-R host admits): none (`false`) or the listed proxy addresses
 * and CIDR ranges (express's `trust proxy`, compiled once by proxy-addr). Never every peer, and
 * never a hop count: "the nearest hop" is whoever reaches the port, so a stranger who connects
 * directly would choose its own address. The distributor of a surface-R request comes from
 * `Host` alone: `X-Forwarded-Host` is never read.
 */
export type TrustProxy = false | string[];

/**
 * TLS served by the gateway itself. With a client CA, client certificates signed by it are
 * requested but not required at the TLS layer: a surface-R host bound to a certificate
 * fingerprint refuses a request without it (403), every other door works without one.
 */
export interface TlsConfig {
  /** PEM certificate chain (TLS_CERT_FILE). */
  cert: string;
  /** PEM private key (TLS_KEY_FILE). */
  key: string;
  /** PEM CA(s) client certificates are verified against (TLS_CLIENT_CA_FILE); null: none requested. */
  clientCa: string | null;
}

/** CORS_ALLOWED_ORIGINS: exact origins (`https://console.example`, no path), compared in lower case. */
export function parseOrigins(raw: string | undefined, problems: string[]): string[] {
  const origins = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/.test(origin))
      problems.push(`CORS_ALLOWED_ORIGINS entry "${origin}" must be an origin like https://app.example (scheme, host and optional port, nothing else)`);
  }
  return origins;
}

/** TLS_CERT_FILE and TLS_KEY_FILE together (or neither); TLS_CLIENT_CA_FILE only with them. Files are read now. */
export function parseTls(env: NodeJS.ProcessEnv, appEnv: string, problems: string[]): TlsConfig | null {
  const certFile = env.TLS_CERT_FILE?.trim() || null;
  const keyFile = env.TLS_KEY_FILE?.trim() || null;
  const caFile = env.TLS_CLIENT_CA_FILE?.trim() || null;
  if (!certFile && !keyFile) {
    if (caFile) problems.push('TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE (the gateway must serve TLS to ask for client certificates)');
    return null;
  }
  if (!certFile || !keyFile) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
    return null;
  }
  const read = (name: string, file: string, marker: RegExp, secret = false) => {
    let pem: string | undefined;
    if (secret) pem = readSecretFile(name, file, appEnv, problems);
    else {
      try {
        pem = readFileSync(file, 'utf8');
      } catch {
        problems.push(`${name} cannot be read: "${file}"`);
      }
    }
    if (pem === undefined) return '';
    if (!marker.test(pem)) problems.push(`${name} must be a PEM file, got "${file}"`);
    return pem;
  };
  return {
    cert: read('TLS_CERT_FILE', certFile, /-----BEGIN CERTIFICATE-----/),
    key: read('TLS_KEY_FILE', keyFile, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, true),
    clientCa: caFile ? read('TLS_CLIENT_CA_FILE', caFile, /-----BEGIN CERTIFICATE-----/) : null,
  };
}

/** express's named ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset/false/0 (none) or proxy addresses/CIDRs; `true` ("everyone") and hop counts
 * are refused. Outside development and test each range must lie inside a private network
 * (PRIVATE_NETWORKS): a reverse proxy sits in the gateway's own network, and a range beyond it
 * lets whoever is there choose its own address.
 */
export function parseTrustProxy(raw: string | undefined, appEnv: string, problems: string[]): TrustProxy {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
  if (value === 'true' || value === 'yes' || value === '*') {
    problems.push(
      `TRUST_PROXY must list the proxies' addresses or CIDR ranges, never "${raw}" (every peer could then choose its own address by X-Forwarded-For)`,
    );
    return false;
  }
  if (/^\d+$/.test(value)) {
    problems.push(
      `TRUST_PROXY must list the proxies' addresses or CIDR ranges (e.g. 10.0.0.5 or 10.0.0.0/24), not a hop count "${raw}" (whoever reaches the port is the nearest hop, so a stranger could choose its own address by X-Forwarded-For)`,
    );
    return false;
  }
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ranges: IpRange[] = [];
  for (const entry of entries) {
    if (NAMED_PROXY_RANGES.has(entry)) continue;
    const range = parseRange(entry);
    if (!range) problems.push(`TRUST_PROXY entry "${entry}" must be an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`);
    else if (coversEveryAddress([range])) problems.push(`TRUST_PROXY entry "${entry}" trusts every peer`);
    else {
      ranges.push(range);
      if (!isDevelopmentEnv(appEnv) && !withinPrivateNetwork(range))
        problems.push(
          `TRUST_PROXY entry "${entry}" is wider than a private network when APP_ENV is ${appEnv}: name the proxies' own addresses, each inside one of ${PRIVATE_NETWORKS.join(', ')}`,
        );
    }
  }
  // Ranges that together cover everyone are everyone, however they are split.
  if (ranges.length > 1 && coversEveryAddress(ranges)) problems.push(`TRUST_PROXY "${raw}" trusts every peer (its ranges together cover every address)`);
  return entries;
}

/** BODY_LIMIT (validated by loadConfig: `<n>b|kb|mb`) in bytes, for limits that take a number (WebSocket messages). */
export function bodyLimitBytes(limit: string): number {
  const [, n, unit] = /^(\d+)(b|kb|mb)$/i.exec(limit) ?? ['', '102400', 'b'];
  return Number(n) * ({ b: 1, kb: 1024, mb: 1024 * 1024 } as Record<string, number>)[unit.toLowerCase()];
}
