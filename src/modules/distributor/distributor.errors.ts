import { badRequest, conflict, forbidden, notFound } from '../../common/errors';
import { PRIVATE_NETWORKS } from '../../common/cidr';

/** On investor registration the message names the id (`distributorId not found: DT…`). */
export const distributorNotFoundNamed = (id: string) => notFound(`distributorId not found: ${id}`);
export const distributorNotFound = () => notFound('distributorId not found');
export const hostNotProvisioned = (host: string) => forbidden(`host ${host} is not provisioned for any distributor`);
export const distributorNotFoundById = (id: string) => notFound(`distributor not found: ${id}`);
export const hostTaken = (host: string) => conflict(`hostname ${host} is already mapped to a distributor`);
export const hostNotMapped = (host: string) => notFound(`hostname ${host} is not mapped`);
export const invalidHostname = () => badRequest('hostname must be a DNS name or IP address, without scheme, port or path');
export const grantNotFound = (distributorId: string, shareClassId: string) => notFound(`share class ${shareClassId} is not granted to ${distributorId}`);
/* A surface-R host's binding (host-binding.ts): every refusal says what is missing. */
export const hostNotBound = (host: string) => forbidden(`host ${host} is not bound: bind it to source ranges or a client certificate (bindDistributorHost)`);
export const hostAddressRefused = (host: string) => forbidden(`host ${host} does not accept requests from this address`);
export const hostCertificateRequired = (host: string) => forbidden(`host ${host} requires a client certificate`);
export const hostCertificateRefused = (host: string) => forbidden(`host ${host} does not accept this client certificate`);
export const invalidSourceRange = (entry: string) => badRequest(`sourceRanges entry "${entry}" must be an IP address or CIDR range`);
export const sourceRangesCoverEveryone = () => badRequest('sourceRanges must not cover every address');
export const sourceRangeNotPrivate = (entry: string) =>
  badRequest(
    `sourceRanges entry "${entry}" is wider than a private network: outside development a host is bound to private ranges (${PRIVATE_NETWORKS.join(', ')}) or a client certificate`,
  );
export const invalidFingerprint = () => badRequest('clientCertSha256 must be a SHA-256 fingerprint: 64 hex digits, colons allowed');
