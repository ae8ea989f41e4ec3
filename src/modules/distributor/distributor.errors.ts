import { badRequest, conflict, forbidden, notFound } from '../../common/errors';

/** On investor registration the message names the id (`distributorId not found: DT…`). */
export const distributorNotFoundNamed = (id: string) => notFound(`distributorId not found: ${id}`);
export const distributorNotFound = () => notFound('distributorId not found');
export const hostNotProvisioned = (host: string) => forbidden(`host ${host} is not provisioned for any distributor`);
export const distributorNotFoundById = (id: string) => notFound(`distributor not found: ${id}`);
export const hostTaken = (host: string) => conflict(`hostname ${host} is already mapped to a distributor`);
export const hostNotMapped = (host: string) => notFound(`hostname ${host} is not mapped`);
export const invalidHostname = () => badRequest('hostname must be a DNS name or IP address, without scheme, port or path');
export const grantNotFound = (distributorId: string, shareClassId: string) => notFound(`share class ${shareClassId} is not granted to ${distributorId}`);
