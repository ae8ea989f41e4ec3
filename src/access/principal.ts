import { shownId } from '../common/ids';

/**
 * Who is asking. Every request carries exactly one principal; what it may see and do is decided
 * by the Access built from it (src/access/access.ts), the only reader of these fields.
 */
export type Surface = 'R' | 'O';

/**
 * What an ops principal may do (src/access/ops-roles.ts says which field needs which):
 * `viewer` reads, `operator` runs the day's ops mutations, `approver` decides four-eyes
 * requests, `admin` does everything, issuing and revoking ops tokens included.
 */
export const OPS_ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type OpsRole = (typeof OPS_ROLES)[number];

/**
 * An ops caller is a person: `id` is its row in `ops_principal` (what four eyes compare), `name`
 * its unique name (what records are labelled with), `tokenId` the credential it came with. Work the
 * gateway does as itself (the demo seed, CLI scripts, jobs) has neither: `id` null is nobody's
 * person, and four eyes refuse it (src/modules/approval/approval.service.ts).
 */
export interface OpsPrincipal {
  kind: 'ops';
  id: string | null;
  name: string;
  roles: readonly OpsRole[];
  tokenId: string | null;
}

export type Principal = OpsPrincipal | { kind: 'distributor'; distributorId: string; surface: Surface } | { kind: 'anonymous' };

export const anonymous: Principal = { kind: 'anonymous' };

/**
 * The principal as every record's actor column stores it: `ops:<principal name>` (unique),
 * `distributor:DT…` (surface R), `partner:PT…` (surface O); a background job names itself.
 */
export function principalLabel(principal: Principal): string | null {
  switch (principal.kind) {
    case 'ops':
      return `ops:${principal.name}`;
    case 'distributor':
      return principal.surface === 'O' ? `partner:${shownId(principal.distributorId, 'distributor', 'O')}` : `distributor:${principal.distributorId}`;
    default:
      return null;
  }
}

/** Whether roles include `role` (`admin` includes every role; any role may read). */
export function hasRole(roles: readonly OpsRole[], role: OpsRole): boolean {
  return role === 'viewer' ? roles.length > 0 : roles.includes(role) || roles.includes('admin');
}
