import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';
import { coversEveryAddress, inRanges, parseRange, withinPrivateNetwork, type IpRange } from '../../common/cidr';
import type { DomainError } from '../../common/errors';
import {
  hostAddressRefused,
  hostCertificateRefused,
  hostCertificateRequired,
  hostNotBound,
  invalidFingerprint,
  invalidSourceRange,
  sourceRangeNotPrivate,
  sourceRangesCoverEveryone,
} from './distributor.errors';

/**
 * Surface R names its caller by hostname (the description's "hostname provisioning"), and a
 * hostname is only a header anyone who reaches the port can type. A host is therefore *bound* to
 * something a caller cannot type:
 * - source ranges: the client address (as TRUST_PROXY resolves it) must lie in one of them;
 * - a client certificate: the request must arrive over the gateway's own TLS (TLS_CERT_FILE…)
 *   with a client certificate signed by TLS_CLIENT_CA_FILE whose SHA-256 fingerprint is the one
 *   the host names.
 * With both, both must hold. A host bound to neither is refused when HOST_BINDING_REQUIRED is on
 * (always outside development and test), so a deployment fails closed until ops bind its hosts.
 */
export interface HostBinding {
  sourceRanges: string[];
  clientCertSha256: string | null;
}

/** The surface-R host a request names: its `Host` header alone, port stripped, lower case, no trailing dot. */
export function requestHost(headers: IncomingHttpHeaders): string {
  const raw = (headers.host ?? '').trim().toLowerCase();
  const host = raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.replace(/:\d*$/, '');
  return host.replace(/\.$/, '');
}

/** What the caller proved on its connection: its address and, over TLS with a CA-verified client certificate, that certificate's fingerprint. */
export interface HostCaller {
  address: string | undefined;
  certSha256: string | null;
}

/** The SHA-256 fingerprint of the verified client certificate of a TLS connection; null without one. */
export function clientCertificateSha256(socket: Socket): string | null {
  const tls = socket as Partial<TLSSocket>;
  if (typeof tls.getPeerCertificate !== 'function' || !tls.authorized) return null;
  const fingerprint = tls.getPeerCertificate().fingerprint256;
  return fingerprint ? normaliseFingerprint(fingerprint) : null;
}

const normaliseFingerprint = (value: string) => value.replace(/:/g, '').toLowerCase();

/**
 * Source ranges parsed once per binding, not per request: the read cache hands every request on
 * a host the same mapping, so its array of ranges is the key (a new binding is a new array).
 */
const parsedRanges = new WeakMap<readonly string[], IpRange[]>();
function rangesOf(ranges: readonly string[]): IpRange[] {
  let parsed = parsedRanges.get(ranges);
  if (!parsed) parsedRanges.set(ranges, (parsed = ranges.map((r) => parseRange(r)!)));
  return parsed;
}

/** The refusal of a request on `host` by `caller`, or null when the binding admits it. */
export function bindingRefusal(host: string, binding: HostBinding, caller: HostCaller, required: boolean): DomainError | null {
  const ranges = binding.sourceRanges;
  if (!ranges.length && !binding.clientCertSha256) {
    return required ? hostNotBound(host) : null;
  }
  if (ranges.length && !(caller.address && inRanges(caller.address, rangesOf(ranges)))) {
    return hostAddressRefused(host);
  }
  if (binding.clientCertSha256) {
    if (!caller.certSha256) return hostCertificateRequired(host);
    if (caller.certSha256 !== binding.clientCertSha256) return hostCertificateRefused(host);
  }
  return null;
}

/**
 * A binding as ops give it (bindDistributorHost): ranges validated and none covering everyone;
 * with `privateRangesOnly` (outside development and test) each inside a private network, so a
 * source range names a private link, never a slice of the internet (bind a client certificate
 * for callers that come over it); the fingerprint as 64 hex digits.
 */
export function validBinding(input: { sourceRanges?: string[] | null; clientCertSha256?: string | null }, privateRangesOnly = false): HostBinding {
  const sourceRanges = (input.sourceRanges ?? []).map((r) => r.trim().toLowerCase()).filter(Boolean);
  const parsed = sourceRanges.map((r) => {
    const range = parseRange(r);
    if (!range) throw invalidSourceRange(r);
    if (privateRangesOnly && !withinPrivateNetwork(range)) throw sourceRangeNotPrivate(r);
    return range;
  });
  if (parsed.length && coversEveryAddress(parsed)) throw sourceRangesCoverEveryone();
  const raw = input.clientCertSha256?.trim() || null;
  const clientCertSha256 = raw === null ? null : normaliseFingerprint(raw);
  if (clientCertSha256 !== null && !/^[0-9a-f]{64}$/.test(clientCertSha256)) throw invalidFingerprint();
  return { sourceRanges, clientCertSha256 };
}
