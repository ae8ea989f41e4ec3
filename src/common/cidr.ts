import { isIP } from 'node:net';

/**
 * IP addresses and CIDR ranges as numbers, for the rules that decide on an address: which peers
 * TRUST_PROXY believes, which clients a bound surface-R host admits, where webhooks may connect.
 * An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, `::ffff:0:1.2.3.4`) is its IPv4 address, so no
 * rule can be walked around by spelling an address the other way.
 */
export interface IpRange {
  family: 4 | 6;
  /** First and last address of the range. */
  first: bigint;
  last: bigint;
}

const BITS = { 4: 32, 6: 128 } as const;

function ipv4ToBigint(address: string): bigint {
  return address.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigint(address: string): bigint {
  let text = address.toLowerCase().replace(/%.*$/, '');
  // A trailing dotted IPv4 part is two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = ipv4ToBigint(v4[1]);
    text = text.slice(0, -v4[1].length) + `${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...(tail === undefined ? [] : Array<string>(missing).fill('0')), ...tailGroups];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

/** `::ffff:0:0/96` (mapped) and `::ffff:0:0:0/96` (translated): both carry an IPv4 address in their low 32 bits. */
const MAPPED_PREFIXES = [0xffffn << 32n, 0xffffn << 48n];

/** An address as a number, IPv4-mapped IPv6 unmapped to IPv4; null when it is not an IP address. */
export function parseAddress(address: string): { family: 4 | 6; value: bigint } | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return { family: 4, value: ipv4ToBigint(bare) };
  if (family !== 6) return null;
  const value = ipv6ToBigint(bare);
  if (MAPPED_PREFIXES.includes((value >> 32n) << 32n)) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

/**
 * An address or CIDR range (`10.0.0.0/8`, `2001:db8::/32`, `192.0.2.7`); null when malformed.
 * A mapped IPv6 range inside `::ffff:0:0/96` is the IPv4 range it maps.
 */
export function parseRange(entry: string): IpRange | null {
  const [address, prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return null;
  const parsed = parseAddress(address);
  if (!parsed || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return null;
  const written = isIP(address.replace(/^\[(.*)\]$/, '$1')) as 4 | 6;
  let prefix = prefixText === undefined ? BITS[written] : Number(prefixText);
  if (prefix > BITS[written]) return null;
  // A mapped range is narrowed to the IPv4 bits it spans (a prefix shorter than 96 also covers non-mapped addresses: keep it IPv6).
  if (written === 6 && parsed.family === 4) {
    if (prefix < 96) return rangeOf(6, ipv6ToBigint(address), prefix);
    prefix -= 96;
  }
  return rangeOf(parsed.family, parsed.value, prefix);
}

function rangeOf(family: 4 | 6, value: bigint, prefix: number): IpRange {
  const hostBits = BigInt(BITS[family] - prefix);
  const first = (value >> hostBits) << hostBits;
  return { family, first, last: first + (1n << hostBits) - 1n };
}

/** Whether `address` lies in one of `ranges` (mapped IPv6 compared as IPv4). */
export function inRanges(address: string, ranges: readonly IpRange[]): boolean {
  const a = parseAddress(address);
  if (!a) return false;
  return ranges.some((r) => r.family === a.family && a.value >= r.first && a.value <= r.last);
}

/**
 * Whether the ranges together cover every IPv4 address or every IPv6 address: `0.0.0.0/0`,
 * `::/0`, but also `0.0.0.0/1,128.0.0.0/1` or `::ffff:0:0/96` — a setting that means "everyone"
 * however it is spelled.
 */
export function coversEveryAddress(ranges: readonly IpRange[]): boolean {
  return ([4, 6] as const).some((family) => {
    // An IPv6 range over all of ::ffff:0:0/96 covers every IPv4 client too.
    const own = ranges.filter((r) => r.family === family);
    const spans =
      family === 4
        ? [
            ...own,
            ...ranges
              .filter((r) => r.family === 6 && r.first <= MAPPED_PREFIXES[0] && r.last >= MAPPED_PREFIXES[0] + 0xffffffffn)
              .map(() => ({ family: 4 as const, first: 0n, last: 0xffffffffn })),
          ]
        : own;
    const sorted = [...spans].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
    let next = 0n;
    for (const r of sorted) {
      if (r.first > next) return false;
      if (r.last + 1n > next) next = r.last + 1n;
    }
    return next === 1n << BigInt(BITS[family]);
  });
}

/**
 * The private networks: loopback (`127.0.0.0/8`, `::1`), RFC 1918 (`10.0.0.0/8`,
 * `172.16.0.0/12`, `192.168.0.0/16`), RFC 4193 unique local (`fc00::/7`) and link-local
 * (`169.254.0.0/16`, `fe80::/10`). Production trusts forwarded addresses only from proxies inside
 * them, and binds surface-R hosts only to sources inside them: a range outside reaches the
 * internet (`0.0.0.0/1`), or, like NAT64's `64:ff9b::/96`, every IPv4 address through it.
 */
export const PRIVATE_NETWORKS: readonly string[] = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '169.254.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];
const PRIVATE_RANGES = PRIVATE_NETWORKS.map((r) => parseRange(r)!);

/** Whether the whole range lies inside one private network (an IPv4-mapped range judged as its IPv4 range). */
export function withinPrivateNetwork(range: IpRange): boolean {
  return PRIVATE_RANGES.some((n) => n.family === range.family && range.first >= n.first && range.last <= n.last);
}
