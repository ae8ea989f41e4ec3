import { createContext, useContext } from 'react';

/** The signed-in principal as the gateway answers `me`: what every screen shows actions by. */
export interface SignedIn {
  principal: string;
  name: string | null;
  roles: string[];
  /** The role-bound root fields its roles allow, as the gateway derives them from its role table. */
  mayCall: string[];
}

export const MeContext = createContext<SignedIn>({ principal: '', name: null, roles: [], mayCall: [] });

export function useMe(): SignedIn {
  return useContext(MeContext);
}

/**
 * Whether the signed-in principal may call `operation` (a mutation, or a read that needs more
 * than `viewer`). The gateway decides, from src/access/ops-roles.ts, and tells the console in
 * `me.mayCall`; the console only hides what it would refuse.
 */
export function may(me: SignedIn, operation: string): boolean {
  return me.mayCall.includes(operation);
}
