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
  ['64:ff9b::', 96], // NAT64 may embed any IPv4
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
    const v4mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const addr = v4mapped ?? address;
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowedRanges.check(addr, type)) return false;
    return BLOCKED.check(addr, type);
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

export class ForbiddenAddress extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to a forbidden address (${address})`);
    this.name = 'ForbiddenAddress';
  }
}
