import { createContext, useContext } from 'react';

/** The signed-in principal as the gateway answers `me`: what every screen shows actions by. */
export interface SignedIn {
  principal: string;
  name: string | null;
  roles: string[];
}

export const MeContext = createContext<SignedIn>({ principal: '', name: null, roles: [] });

export function useMe(): SignedIn {
  return useContext(MeContext);
}

/**
 * Whether the signed-in principal has `role` (admin has every role; any role reads). The gateway
 * decides (src/access/ops-roles.ts); the console only hides what would be refused.
 */
export function can(me: SignedIn, role: 'viewer' | 'operator' | 'approver' | 'admin'): boolean {
  if (role === 'viewer') return me.roles.length > 0;
  return me.roles.includes(role) || me.roles.includes('admin');
}
