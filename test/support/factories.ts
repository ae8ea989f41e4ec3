import type { EntityManager } from '@mikro-orm/postgresql';
import { nextId } from '../../src/common/ids';
import { runInScope } from '../../src/common/request-scope';
import { DeliveryMode, Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from '../../src/modules/distributor/distributor.entity';
import { Fund } from '../../src/modules/fund/fund.entity';
import { bookOpening } from '../../src/modules/holding/holding-ledger';
import { Investor, InvestorGrant, InvestorWallet, WalletStatus } from '../../src/modules/investor/investor.entity';
import { Issuer } from '../../src/modules/issuer/issuer.entity';
import { entryIdOf, Nav } from '../../src/modules/nav/nav.entity';
import { dateIn } from '../../src/modules/dealing/dealing-calendar';
import { DateTime } from 'luxon';
import { ShareClass } from '../../src/modules/share-class/share-class.entity';
import { Token } from '../../src/modules/token/token.entity';

/*
 * One factory per aggregate. Each writes through the ORM (audit fields stamped as `factory`)
 * and returns the record; defaults make a complete, valid record, overrides change one thing.
 */

const asFactory = <T>(fn: () => Promise<T>) => runInScope({ actor: 'factory' }, fn);

export const CHAIN = '11155111';

export async function anIssuer(em: EntityManager, over: Partial<Issuer> = {}): Promise<Issuer> {
  return asFactory(async () => {
    const issuer = em.create(Issuer, { id: await nextId(em, 'IS'), name: 'Test Issuer', ...over });
    await em.flush();
    return issuer;
  });
}

export async function aFund(em: EntityManager, over: Partial<Fund> = {}): Promise<Fund> {
  return asFactory(async () => {
    const issuer = over.issuer ?? (await anIssuer(em));
    const fund = em.create(Fund, { id: await nextId(em, 'FN'), name: 'Test Fund', ...over, issuer });
    await em.flush();
    return fund;
  });
}

/**
 * Every weekday: the factories' share classes deal every day, so an order placed now is dealt
 * today and can settle once today's NAV is struck, whatever day the suite runs (a NAV is struck,
 * never published ahead). A test of the weekday rules gives its class a week of its own.
 */
export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/** A complete share class with a primary token on `CHAIN` (its defaultChainId), dealing every day. */
export async function aShareClass(em: EntityManager, over: Partial<ShareClass> & { chainId?: string; tokenDecimals?: number } = {}): Promise<ShareClass> {
  return asFactory(async () => {
    const { chainId = CHAIN, tokenDecimals = 6, ...fields } = over;
    const fund = fields.fund ?? (await aFund(em));
    const currency = fields.currency ?? 'USD';
    const sc = em.create(ShareClass, {
      id: await nextId(em, 'SC'),
      currency,
      provider: 'supply-sim',
      status: 'active',
      feesSubBps: 10,
      feesRedBps: 5,
      feesMgmtBps: 20,
      feesPerfBps: 100,
      feesWatermarkBps: 0,
      meta: { name: 'Test Class A', manager: 'Test Manager' },
      // No minimum unless a test sets one (a minimum would refuse most amounts tests use).
      details: { isin: 'LU0000000009', jurisdiction: 'LU', minimumInvestment_fiat: 0 },
      metrics: { apy_bps: 1250, tvl_fiat: '1000000.50', change7D: '0.25', currency, maturity_days: -1 },
      overview: { assetClass: 'Money Market', description: 'Test share class', riskLevel: 2 },
      subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: 0, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
      bank: { accountHolderName: 'Fund', accountNumber: 'LU930010000000000000', accountType: 'IBAN', bankName: 'Bank', swiftCode: 'BANKLULL', currency },
      dealingWeekdays: EVERY_DAY,
      ...fields,
      fund,
    });
    em.create(Token, {
      id: await nextId(em, 'TK'),
      shareClass: sc,
      chainId,
      contractAddress: `0x${sc.id.toLowerCase().padStart(40, '0')}`,
      name: 'Test Token',
      symbol: 'TT',
      decimals: tokenDecimals,
      isPrimary: true,
    });
    await em.flush();
    return sc;
  });
}

/**
 * When a test strikes the NAV of `dealingDate` (in `timeZone`) at `now`: now on the date itself,
 * the last NAV of the date so far (a market's own NAV of a minute ago must not come after it); late
 * in the evening of a date gone by. A date still ahead has no NAV yet (a NAV is struck, never
 * published ahead): that is the test's mistake, said as such.
 */
export function dealingDateStrikeAt(dealingDate: string, now: Date, timeZone = 'UTC'): Date {
  const today = dateIn(now, timeZone);
  if (dealingDate > today)
    throw new Error(`the NAV of dealing date ${dealingDate} cannot be struck at ${now.toISOString()}: deal the class today or move the clock`);
  if (dealingDate === today) return now;
  return DateTime.fromISO(`${dealingDate}T21:59:00`, { zone: timeZone }).toJSDate();
}

/** The NAV struck for `dealingDate` (UTC): the last one published on that date (navOfDealingDate), at `now` when it is today. */
export async function aDealingDateNav(em: EntityManager, shareClass: ShareClass, close: string, dealingDate: string, now = new Date()): Promise<Nav> {
  return aNav(em, shareClass, close, dealingDateStrikeAt(dealingDate, now));
}

export async function aNav(em: EntityManager, shareClass: ShareClass, close: string, publishedAt: Date): Promise<Nav> {
  return asFactory(async () => {
    const nav = em.create(Nav, {
      shareClass,
      entryId: entryIdOf(publishedAt),
      close,
      open: close,
      high: close,
      low: close,
      currency: shareClass.currency,
      volume: '0',
      publishedAt,
      struckBy: 'factory',
    });
    await em.flush();
    return nav;
  });
}

/** A distributor reachable on surface R through `hosts`, with a wallet on `CHAIN`. */
export async function aDistributor(em: EntityManager, hosts: string[] = [], over: Partial<Distributor> = {}): Promise<Distributor> {
  return asFactory(async () => {
    const distributor = em.create(Distributor, { id: await nextId(em, 'DT'), name: 'Test Distributor', ...over });
    for (const hostname of hosts) em.create(DistributorHost, { hostname, distributor });
    em.create(DistributorWallet, { distributor, chainId: CHAIN, address: `0x${distributor.id.toLowerCase().padStart(40, 'd')}` });
    await em.flush();
    return distributor;
  });
}

export async function aGrant(
  em: EntityManager,
  distributor: Distributor,
  shareClass: ShareClass,
  deliveryMode = DeliveryMode.passthrough,
): Promise<ShareClassGrant> {
  return asFactory(async () => {
    const grant = em.create(ShareClassGrant, { distributor, shareClass, deliveryMode });
    await em.flush();
    return grant;
  });
}

/** An investor; `grants` share classes and a whitelisted wallet on `walletChain` unless null. */
export async function anInvestor(
  em: EntityManager,
  distributor: Distributor,
  opts: { grants?: ShareClass[]; walletChain?: string | null; walletStatus?: WalletStatus; over?: Partial<Investor> } = {},
): Promise<Investor> {
  return asFactory(async () => {
    const investor = em.create(Investor, {
      id: await nextId(em, 'IN'),
      distributor,
      externalInvestorId: 'ext-1',
      email: 'investor@example.com',
      countryCode: 'LU',
      ...opts.over,
    });
    for (const shareClass of opts.grants ?? []) em.create(InvestorGrant, { investor, shareClass });
    const chain = opts.walletChain === undefined ? CHAIN : opts.walletChain;
    if (chain !== null) {
      const status = opts.walletStatus ?? WalletStatus.whitelisted;
      em.create(InvestorWallet, {
        investor,
        chainId: chain,
        address: `0x${investor.id.toLowerCase().padStart(40, 'e')}`,
        status,
        whitelistedAt: status === WalletStatus.whitelisted ? new Date() : undefined,
      });
    }
    await em.flush();
    return investor;
  });
}

/** A holding of `balance` tokens, one lot settled at `settledAt` (lock-up counts from it; default now). */
export async function aHolding(em: EntityManager, investor: Investor, shareClass: ShareClass, balance: string, settledAt = new Date()): Promise<void> {
  return asFactory(() =>
    em.transactional((tem) => bookOpening(tem, { investorId: investor.id, shareClassId: shareClass.id, quantity: balance, settledAt, at: new Date() })),
  );
}

/**
 * The usual world of a surface-R test: a distributor on `dist-a.test` selling a share class with
 * a live NAV, an investor ready to subscribe, and a second distributor on `dist-b.test`.
 */
export async function aMarket(em: EntityManager, now: Date, shareClassOver: Parameters<typeof aShareClass>[1] = {}) {
  const shareClass = await aShareClass(em, shareClassOver);
  const distributor = await aDistributor(em, ['dist-a.test']);
  const other = await aDistributor(em, ['dist-b.test'], { name: 'Other Distributor' });
  await aGrant(em, distributor, shareClass);
  await aGrant(em, other, shareClass);
  const nav = await aNav(em, shareClass, '1.25', new Date(now.getTime() - 60_000));
  const investor = await anInvestor(em, distributor, { grants: [shareClass] });
  return { shareClass, distributor, other, nav, investor, hostA: 'dist-a.test', hostB: 'dist-b.test' };
}
