import Decimal from 'decimal.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors';
import { DECIMAL_COLUMN, Dec, decimalString } from '../../common/money';
import { requiredDecimal } from '../../common/validate';
import { dateIn, type DealingService } from '../dealing';
import { ShareClass } from '../share-class';
import { dailyClosingBalances, type HolderDays } from './distribution.queries';
import { DistributionPolicy, IncomePayment, IncomeTreatment } from './distribution-policy.entity';
import * as E from './distribution.errors';
import { grossOf } from './entitlement-rule';

/*
 * A declaration's plan (docs/income.md): the input checked, then each holder's entitlement from
 * the register's daily closing balances. The preview returns it; a declaration freezes it.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface DeclareInput {
  shareClassId: unknown;
  periodFrom?: unknown;
  periodTo?: unknown;
  recordDate?: unknown;
  payDate: unknown;
  ratePerTokenPerDay?: unknown;
  amountPerToken?: unknown;
}

/** What a declaration would compute, written nowhere. */
export interface DistributionPlan {
  shareClassId: string;
  periodFrom: string;
  periodTo: string;
  payDate: string;
  rate: string;
  perDay: boolean;
  payment: IncomePayment;
  currency: string;
  timeZone: string;
  gross: string;
  holders: (HolderDays & { gross: string })[];
}

export async function planDistribution(deps: { clock: Clock; dealing: DealingService }, em: EntityManager, input: DeclareInput): Promise<DistributionPlan> {
  if (typeof input.shareClassId !== 'string' || !input.shareClassId) throw badRequest('shareClassId is required');
  const rate = input.ratePerTokenPerDay ?? null;
  const perToken = input.amountPerToken ?? null;
  if ((rate === null) === (perToken === null)) throw E.oneBasis();
  const perDay = rate !== null;
  const field = perDay ? 'ratePerTokenPerDay' : 'amountPerToken';
  // The input's own checks come first: more decimals than the column holds is refused, never rounded.
  const given = requiredDecimal(perDay ? rate : perToken, field, DECIMAL_COLUMN, 'must be a positive decimal');
  if (!given.gt(0)) throw E.notPositive(field);
  const value = decimalString(given);
  const shareClass = await em.findOne(ShareClass, { id: input.shareClassId });
  if (!shareClass) throw E.shareClassNotFound();
  const policy = await em.findOne(DistributionPolicy, { shareClassId: shareClass.id });
  if (!policy || policy.treatment !== IncomeTreatment.distributing) throw E.accumulatingClass(shareClass.id);
  const [from, to] = period(input, perDay);
  const payDate = date(input.payDate, 'payDate');
  if (payDate < to) throw badRequest('payDate must be on or after the end of the period');
  const timeZone = (await deps.dealing.rulesOf({ em }, shareClass)).calendar.timeZone;
  if (to >= dateIn(deps.clock.now(), timeZone)) throw E.periodNotEnded(to);
  const days = await dailyClosingBalances(em, shareClass.id, from, to, timeZone);
  const holders = days.map((h) => ({ ...h, gross: decimalString(grossOf(h.tokenDays, value)) }));
  const gross = decimalString(holders.reduce<Decimal>((s, h) => s.plus(h.gross), new Dec(0)));
  return {
    shareClassId: shareClass.id,
    periodFrom: from,
    periodTo: to,
    payDate,
    rate: decimalString(value),
    perDay,
    payment: policy.payment!,
    currency: shareClass.currency,
    timeZone,
    gross,
    holders,
  };
}

/** A period (from..to), or a record date (a period of one day); an amount per token needs a record date. */
function period(input: DeclareInput, perDay: boolean): [string, string] {
  if (input.recordDate !== undefined && input.recordDate !== null) {
    if (input.periodFrom != null || input.periodTo != null) throw badRequest('give a period (periodFrom, periodTo) or a recordDate, not both');
    const d = date(input.recordDate, 'recordDate');
    return [d, d];
  }
  if (!perDay) throw badRequest('an amountPerToken is paid on the balances of a recordDate');
  const from = date(input.periodFrom, 'periodFrom');
  const to = date(input.periodTo, 'periodTo');
  if (from > to) throw badRequest('periodFrom must be on or before periodTo');
  return [from, to];
}

function date(value: unknown, field: string): string {
  if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value))) throw E.invalidDate(field);
  return value;
}
