import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { inRanges, parseAddress, parseRange, type IpRange } from '../../common/cidr';

/**
 * Server-side request forgery guard, an allowlist: an endpoint may reach public unicast
 * addresses only — IPv4 outside every special-purpose block of the IANA registry, IPv6 inside
 * global unicast `2000::/3` outside its special-purpose blocks; an IPv4-mapped or -translated
 * IPv6 address (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`) is judged as its IPv4 address, and one
 * that embeds an IPv4 target (NAT64, 6to4, Teredo) by that target. Anything else — a block the
 * next RFC assigns included — is refused unless WEBHOOK_ALLOWED_HOSTS names its host, its
 * address or a range holding it. Checked at registration and again at every delivery on the
 * freshly resolved address, which the connection is then pinned to (so a DNS answer that changes
 * between check and connect — rebinding — cannot redirect it).
 */
const NOT_PUBLIC_V4 = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8',
  '100.64.0.0/10', // CGNAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, incl. 169.254.169.254 metadata
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.31.196.0/24', // AS112
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16',
  '192.175.48.0/24', // AS112 direct delegation
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast
].map(range);

/** Global unicast IPv6 (2000::/3) is public except these. */
const GLOBAL_UNICAST_V6 = range('2000::/3');
const NOT_PUBLIC_V6 = [
  '2001::/23', // IETF protocol assignments (Teredo 2001::/32 is judged by its embedded addresses first)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4 (judged by its embedded relay address first)
  '3fff::/20', // documentation
].map(range);

function range(cidr: string): IpRange {
  const r = parseRange(cidr);
  if (!r) throw new Error(`bad range ${cidr}`);
  return r;
}

/** Whether `address` is a public unicast address (mapped IPv6 unmapped; embedded IPv4 targets judged by themselves). */
export function isPublicUnicast(address: string): boolean {
  const a = parseAddress(address);
  if (!a) return false;
  if (a.family === 4) return !inRanges(address, NOT_PUBLIC_V4);
  const embedded = embeddedIpv4(address);
  if (embedded.length) return embedded.every(isPublicUnicast);
  return inRanges(address, [GLOBAL_UNICAST_V6]) && !inRanges(address, NOT_PUBLIC_V6);
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class EndpointGuard {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedRanges: IpRange[] = [];

  /** `allowlist`: WEBHOOK_ALLOWED_HOSTS, validated by loadConfig (no entry covers every address outside development and test). */
  constructor(allowlist: string[]) {
    for (const entry of allowlist) {
      const r = parseRange(entry);
      if (r) this.allowedRanges.push(r);
      else this.allowedHosts.add(entry.toLowerCase());
    }
  }

  /** Whether a connection to `address` (of host `hostname`) is forbidden. */
  isForbidden(hostname: string, address: string): boolean {
    if (this.allowedHosts.has(hostname.toLowerCase())) return false;
    if (inRanges(address, this.allowedRanges)) return false;
    // An IPv6 address that carries IPv4 targets reaches them: the allowlist may open them one by one.
    const embedded = parseAddress(address)?.family === 6 ? embeddedIpv4(address) : [];
    if (embedded.length) return !embedded.every((v4) => inRanges(v4, this.allowedRanges) || isPublicUnicast(v4));
    return !isPublicUnicast(address);
  }

  /**
   * The addresses `hostname` resolves to now, all of them allowed; throws `ForbiddenAddress` when
   * any is forbidden (a name answering both a public and a private address is refused).
   */
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const bare = hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(bare);
    const addresses: ResolvedAddress[] = literal
      ? [{ address: bare, family: literal as 4 | 6 }]
      : (await lookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    if (!addresses.length) throw new Error(`${hostname} has no address`);
    for (const a of addresses) {
      if (this.isForbidden(bare, a.address)) throw new ForbiddenAddress(hostname, a.address);
    }
    return addresses;
  }
}

/** The 16 bytes of an IPv6 address (validated by `isIP` beforehand), dotted-quad tails included. */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const words = (part: string) => (part ? part.split(':').map((w) => parseInt(w, 16)) : []);
  const left = words(head);
  const right = tail === null ? [] : words(tail);
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

const v4 = (b: number[]) => b.join('.');

/**
 * The IPv4 addresses an IPv6 address leads to: IPv4-mapped `::ffff:a.b.c.d`, the deprecated
 * IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16` (its relay router) and
 * Teredo `2001::/32` (its server, and the client behind the obfuscated last 32 bits).
 */
export function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return [v4(b.slice(12))];
  // ::a.b.c.d, but not :: and ::1 themselves (listed on their own).
  if (zeros(0, 12) && !(zeros(12, 15) && b[15] <= 1)) return [v4(b.slice(12))];
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return [v4(b.slice(12))];
  if (b[0] === 0x20 && b[1] === 0x02) return [v4(b.slice(2, 6))];
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return [v4(b.slice(4, 8)), v4(b.slice(12).map((x) => x ^ 0xff))];
  return [];
}

export class ForbiddenAddress extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to a forbidden address (${address})`);
    this.name = 'ForbiddenAddress';
  }
}
