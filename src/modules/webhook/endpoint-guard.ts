import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard. An endpoint may not reach loopback, private, link-local,
 * CGNAT, IPv6 unique-local or cloud-metadata addresses, unless the allowlist of the config names
 * its host, its address or a range holding it. Checked at registration and again at every
 * delivery on the freshly resolved address, which the connection is then pinned to (so a DNS
 * answer that changes between check and connect — rebinding — cannot redirect it).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8],
  ['fd00:ec2::254', 128], // AWS metadata over IPv6 (inside fc00::/7 too)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): a translator inside the network, any prefix length
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class EndpointGuard {
  private readonly allowedHosts = new Set<string>();
  private readonly allowedRanges = new BlockList();

  constructor(allowlist: string[]) {
    for (const entry of allowlist) {
      const [net, prefix] = entry.split('/');
      const family = isIP(net);
      if (family && prefix !== undefined) this.allowedRanges.addSubnet(net, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
      else if (family) this.allowedRanges.addAddress(net, family === 4 ? 'ipv4' : 'ipv6');
      else this.allowedHosts.add(entry.toLowerCase());
    }
  }

  /** Whether a connection to `address` (of host `hostname`) is forbidden. */
  isForbidden(hostname: string, address: string): boolean {
    if (this.allowedHosts.has(hostname.toLowerCase())) return false;
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowedRanges.check(address, type)) return false;
    if (type === 'ipv4') return BLOCKED.check(address, 'ipv4');
    // An IPv6 address that carries an IPv4 one reaches that IPv4 host: judge it by that host too.
    const embedded = embeddedIpv4(address);
    if (embedded.some((v4) => !this.allowedRanges.check(v4, 'ipv4') && BLOCKED.check(v4, 'ipv4'))) return true;
    if (embedded.length && embedded.every((v4) => this.allowedRanges.check(v4, 'ipv4'))) return false;
    return BLOCKED.check(address, 'ipv6');
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
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
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
