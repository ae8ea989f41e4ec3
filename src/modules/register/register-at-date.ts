import type { EntityManager } from '@mikro-orm/postgresql';
import { DateTime } from 'luxon';
import { badRequest, conflict, notFound } from '../../common/errors';
import { Dec, decimalString } from '../../common/money';
import { chainAway } from '../chain';
import { fromUnits } from '../../common/units';
import type { TokenLedger } from '../../ledger/token-ledger';
import { type DealingService, unlockedBalance } from '../dealing';
import { ShareClass } from '../share-class';
import { Token } from '../token';
import { lotsAt, type Departure, type LotArrival } from './lots-at';
import { balancesAt, departuresBefore, lotsBefore, walletsOnChain } from './register.queries';

export interface RegisterWallet {
  address: string;
  /** balanceOf at the closing block. */
  balance: string;
}

export interface RegisterHolder {
  investorId: string;
  distributorId: string;
  /** The register's balance at the day's close (its journal, holding_movement). */
  balance: string;
  /** The part still in lock-up at the day's close. */
  locked: string;
  wallets: RegisterWallet[];
  /** Σ balanceOf of its wallets at the closing block: equals `balance` when the register is true to the chain. */
  chainBalance: string;
}

export interface RegisterAtDate {
  shareClassId: string;
  asOf: string;
  timeZone: string;
  /** The next day's start in the dealing zone: the register is as of just before it. */
  closesAt: Date;
  chainId: string;
  tokenAddress: string;
  /** The last block with a timestamp before `closesAt`; null when the chain had none. */
  blockNumber: string | null;
  blockTimestamp: Date | null;
  total: string;
  holders: RegisterHolder[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The register of a share class at the close of a past day in its dealing zone: every holder with
 * a balance then (from the journal), its locked part (its lots replayed to that instant, lots-at.ts),
 * its wallets and their balanceOf at the block that closes the day (the token ledger's `closingBlock`).
 */
export class RegisterAtDateReader {
  constructor(private readonly deps: { ledger: TokenLedger | null; dealing: Pick<DealingService, 'rulesOf' | 'lockUpOf'>; clock: { now(): Date } }) {}

  async read(em: EntityManager, shareClassId: string, asOf: string): Promise<RegisterAtDate> {
    if (!DATE.test(asOf)) throw badRequest('asOf must be a date YYYY-MM-DD');
    const shareClass = await em.findOne(ShareClass, { id: shareClassId });
    if (!shareClass) throw notFound('Share class not found');
    const timeZone = (await this.deps.dealing.rulesOf({ em }, shareClass)).calendar.timeZone;
    const day = DateTime.fromISO(asOf, { zone: timeZone });
    if (!day.isValid) throw badRequest('asOf must be a date YYYY-MM-DD');
    const closesAt = day.plus({ days: 1 }).startOf('day').toJSDate();
    if (closesAt.getTime() > this.deps.clock.now().getTime()) throw badRequest(`asOf must be a day that has ended in ${timeZone}`);
    const token = await em.findOne(Token, { shareClass: shareClassId }, { orderBy: { isPrimary: 'desc' } });
    const ledger = this.deps.ledger;
    if (!token || !ledger?.reads(token.chainId)) throw conflict(`share class ${shareClassId} has no token on a chain the gateway reads`);
    const block = await ledger.closingBlock(token.chainId, closesAt).catch(() => {
      throw chainAway(token.chainId);
    });

    const balances = await balancesAt(em, shareClassId, closesAt);
    const ids = balances.map((b) => b.investor_id);
    const lockUp = await this.deps.dealing.lockUpOf(em, shareClass);
    const locked = lockUp && ids.length ? await this.lockedAt(em, shareClassId, ids, closesAt, lockUp) : new Map<string, Dec>();
    const wallets = ids.length ? await walletsOnChain(em, token.chainId, ids) : [];
    const units = (v: bigint) => new Dec(fromUnits(v, token.decimals));
    const balanceOf = async (address: string): Promise<Dec> =>
      block ? units(await ledger.balanceOf(token.chainId, token.contractAddress, address, block.number)) : new Dec(0);
    const holders: RegisterHolder[] = [];
    let total = new Dec(0);
    for (const b of balances) {
      const own: RegisterWallet[] = [];
      let onChain = new Dec(0);
      for (const w of wallets.filter((x) => x.investor_id === b.investor_id)) {
        const v = await balanceOf(w.address).catch(() => {
          throw chainAway(token.chainId);
        });
        onChain = onChain.plus(v);
        own.push({ address: w.address, balance: decimalString(v) });
      }
      total = total.plus(b.balance);
      holders.push({
        investorId: b.investor_id,
        distributorId: b.distributor_id,
        balance: decimalString(b.balance),
        locked: decimalString(locked.get(b.investor_id) ?? 0),
        wallets: own,
        chainBalance: decimalString(onChain),
      });
    }
    return {
      shareClassId,
      asOf,
      timeZone,
      closesAt,
      chainId: token.chainId,
      tokenAddress: token.contractAddress,
      blockNumber: block ? String(block.number) : null,
      blockTimestamp: block?.timestamp ?? null,
      total: decimalString(total),
      holders,
    };
  }

  /** Each holder's tokens still in lock-up at `closesAt`: its lots replayed to then (lots-at.ts). */
  private async lockedAt(
    em: EntityManager,
    shareClassId: string,
    ids: string[],
    closesAt: Date,
    lockUp: { days: number; timeZone: string },
  ): Promise<Map<string, Dec>> {
    const lots = await lotsBefore(em, shareClassId, closesAt, ids);
    const outs = await departuresBefore(em, shareClassId, closesAt, ids);
    const result = new Map<string, Dec>();
    for (const id of ids) {
      const arrivals: LotArrival[] = lots
        .filter((l) => l.investor_id === id)
        .map((l) => ({ remaining: l.quantity, settledAt: new Date(l.settled_at), arrivedAt: new Date(l.created_at) }));
      const departures: Departure[] = outs.filter((o) => o.investor_id === id).map((o) => ({ quantity: new Dec(o.change).abs(), at: new Date(o.at) }));
      const open = lotsAt(arrivals, departures);
      const inLots = open.reduce((s, l) => s.plus(l.remaining), new Dec(0));
      result.set(id, inLots.minus(unlockedBalance(inLots, open, lockUp, closesAt).unlocked));
    }
    return result;
  }
}
