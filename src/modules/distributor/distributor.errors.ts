import { forbidden, notFound } from '../../common/errors';

/** On investor registration the message names the id (`distributorId not found: DT…`). */
export const distributorNotFoundNamed = (id: string) => notFound(`distributorId not found: ${id}`);
export const distributorNotFound = () => notFound('distributorId not found');
export const hostNotProvisioned = (host: string) => forbidden(`host ${host} is not provisioned for any distributor`);
