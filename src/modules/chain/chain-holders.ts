import type { EntityManager } from '@mikro-orm/postgresql';
import { zeroAddress } from 'viem';
import type { Holder, Register } from './register-port';

export type { Holder } from './register-port';

/** The investor a wallet belongs to on this chain, as the register maps it; null for 0x0 or a wallet it does not know. */
export async function holderOf(register: Register, em: EntityManager, chainId: string, address: string): Promise<Holder | null> {
  if (address === zeroAddress) return null;
  return register.holderOf(em, chainId, address);
}

/** The investor of that id with its distributor, as the register knows it, or null. */
export async function holderById(register: Register, em: EntityManager, investorId: string | undefined): Promise<Holder | null> {
  return investorId ? register.holderById(em, investorId) : null;
}

/** A holder's holding of a share class, as the holding ledger names it. */
export const holdingOf = (h: Holder, shareClassId: string) => ({ investorId: h.investorId, shareClassId, distributorId: h.distributorId });

/**
 * One side of a transfer as its own distributor is told it (`holding.changed`): its wallet, the
 * direction, and the counterparty — its investor and wallet when the same distributor holds it,
 * the wallet alone when the register does not know it, nothing when another distributor's
 * investor holds it (a distributor never learns another's investors).
 */
export function sideOf(own: Holder, other: Holder | null, ownWallet: string, otherWallet: string, direction: 'in' | 'out') {
  const counterparty = !other
    ? { investorId: null, wallet: otherWallet }
    : other.distributorId === own.distributorId
      ? { investorId: other.investorId, wallet: otherWallet }
      : null;
  return { wallet: ownWallet, direction, counterparty };
}
