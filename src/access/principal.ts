/**
 * Who is asking. Every request carries exactly one principal; what it may see and do is decided
 * by the Access built from it (src/access/access.ts), the only reader of these fields.
 */
export type Surface = 'R' | 'O';

export type Principal =
  | { kind: 'ops'; name: string }
  | { kind: 'distributor'; distributorId: string; surface: Surface }
  | { kind: 'anonymous' };

export const anonymous: Principal = { kind: 'anonymous' };
