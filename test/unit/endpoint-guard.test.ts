import { embeddedIpv4, EndpointGuard } from '../../src/modules/webhook/endpoint-guard';

/** Every IPv6 form that carries an IPv4 address leads to that host, so it is judged by it. */
describe('webhook endpoint guard: IPv6 forms embedding a private IPv4 target', () => {
  const guard = new EndpointGuard([]);

  // given an IPv6 literal for each embedding of 127.0.0.1, 10.0.0.1 and 169.254.169.254
  it.each([
    ['IPv4-mapped, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped, hex', '::ffff:7f00:1'],
    ['IPv4-compatible, dotted', '::127.0.0.1'],
    ['IPv4-compatible, hex', '::a00:1'],
    ['IPv4-compatible metadata', '::169.254.169.254'],
    ['NAT64 well-known prefix', '64:ff9b::10.0.0.1'],
    ['NAT64 well-known prefix, hex', '64:ff9b::a9fe:a9fe'],
    ['NAT64 local-use prefix', '64:ff9b:1::a00:1'],
    ['NAT64 local-use prefix, any address', '64:ff9b:1:abcd::1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of a private network', '2002:c0a8:101::'],
    ['Teredo client 10.0.0.1 (obfuscated)', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    ['Teredo server 192.168.1.1', '2001:0:c0a8:101::1'],
  ])('%s (%s) is refused', (_form, address) => {
    // then each is forbidden
    expect(guard.isForbidden('example.com', address)).toBe(true);
  });

  it.each([
    ['IPv4-mapped public', '::ffff:93.184.216.34'],
    ['IPv4-compatible public', '::93.184.216.34'],
    ['NAT64 of a public address', '64:ff9b::93.184.216.34'],
    ['6to4 of a public address', '2002:5db8:d822::1'],
    ['Teredo of public server and client', '2001:0:5db8:d822:8000:63bf:a247:27dd'],
    ['plain global IPv6', '2606:2800:220:1:248:1893:25c8:1946'],
  ])('%s (%s) is allowed', (_form, address) => {
    expect(guard.isForbidden('example.com', address)).toBe(false);
  });

  it('reads the embedded IPv4 of each form', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIpv4('::10.1.2.3')).toEqual(['10.1.2.3']);
    expect(embeddedIpv4('64:ff9b::10.1.2.3')).toEqual(['10.1.2.3']);
    expect(embeddedIpv4('2002:a01:203::')).toEqual(['10.1.2.3']);
    // Teredo: server 65.54.227.120, client 10.0.0.1 stored as its bitwise complement
    expect(embeddedIpv4('2001:0:4136:e378:8000:63bf:f5ff:fffe')).toEqual(['65.54.227.120', '10.0.0.1']);
    expect(embeddedIpv4('2606:2800::1')).toEqual([]);
    expect(embeddedIpv4('::1')).toEqual([]);
  });

  it('keeps :: and ::1 refused, and lets the allowlist open an embedded private range', () => {
    expect(guard.isForbidden('example.com', '::')).toBe(true);
    expect(guard.isForbidden('example.com', '::1')).toBe(true);
    const open = new EndpointGuard(['10.0.0.0/8']);
    expect(open.isForbidden('example.com', '64:ff9b::10.0.0.1')).toBe(false);
    expect(open.isForbidden('example.com', '64:ff9b::127.0.0.1')).toBe(true);
  });
});

/** The guard is an allowlist: public unicast addresses only, whatever block the address is from. */
describe('webhook endpoint guard: public unicast only', () => {
  const guard = new EndpointGuard([]);

  it.each([
    ['IPv4-translated loopback', '::ffff:0:127.0.0.1'],
    ['IPv4-translated private, hex', '::ffff:0:a00:1'],
    ['site-local (deprecated)', 'fec0::1'],
    ['discard-only', '100::1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['documentation', '192.0.2.10'],
    ['documentation', '198.51.100.10'],
    ['documentation', '203.0.113.10'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 documentation (3fff::/20)', '3fff::1'],
    ['ORCHIDv2 / IETF assignments', '2001:20::1'],
    ['multicast', '239.1.2.3'],
    ['broadcast', '255.255.255.255'],
    ['this network', '0.1.2.3'],
    ['benchmarking', '198.19.0.1'],
    ['AS112', '192.31.196.1'],
    ['IPv6 unspecified block', '::2'],
    ['IPv6 link-local', 'fe80::1'],
    ['unassigned IPv6 outside 2000::/3', '4000::1'],
  ])('%s (%s) is refused', (_what, address) => {
    expect(guard.isForbidden('example.com', address)).toBe(true);
  });

  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700::1111'], ['::ffff:8.8.8.8'], ['::ffff:0:8.8.8.8']])('%s is allowed', (address) => {
    expect(guard.isForbidden('example.com', address)).toBe(false);
  });

  it('the allowlist opens a range or a host, mapped forms included', () => {
    const open = new EndpointGuard(['10.0.0.0/8', 'hooks.internal']);
    expect(open.isForbidden('example.com', '10.1.2.3')).toBe(false);
    expect(open.isForbidden('example.com', '::ffff:0:10.1.2.3')).toBe(false);
    expect(open.isForbidden('example.com', '127.0.0.1')).toBe(true);
    expect(open.isForbidden('hooks.internal', '192.168.1.1')).toBe(false);
  });
});
