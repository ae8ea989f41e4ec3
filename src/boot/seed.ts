import type { EntityManager } from '@mikro-orm/postgresql';
import { nextId } from '../common/ids';
import { Dec } from '../common/money';
import { runInScope } from '../common/request-scope';
import { DeliveryMode, Distributor, DistributorHost, DistributorWallet, ShareClassGrant } from '../modules/distributor/distributor.entity';
import { Fund } from '../modules/fund/fund.entity';
import { DealingCalendar } from '../modules/dealing/dealing-calendar.entity';
import { bookOpening } from '../modules/holding/holding-ledger';
import { Investor, InvestorGrant, InvestorWallet, WalletStatus } from '../modules/investor/investor.entity';
import { Issuer } from '../modules/issuer/issuer.entity';
import { entryIdOf, Nav } from '../modules/nav/nav.entity';
import { ShareClass } from '../modules/share-class/share-class.entity';
import { Token } from '../modules/token/token.entity';

/** The embedded chain (anvil): the demo's tokens are deployed there at the first start. */
export const DEMO_CHAIN_ID = '31337';
export const DEMO_PROVIDER = 'supply-sim';
const NAV_DAYS = 300;
export const DEMO_ISSUER_LEI = '5493001KJTIIGC8Y1R12';
export const DEMO_DISTRIBUTOR_NAME = 'Demo Wealth Partners';
const DAY_MS = 86_400_000;

/**
 * The demo share classes' dealing calendars, so `npm start` shows dealing dates at once: the USD
 * class deals every day of the year in New York time, orders until midnight (a daily class: an
 * order placed now is dealt today, and settles once today's NAV is struck, weekends included), and
 * also takes USDC; the EUR class deals on Luxembourg business days, Monday to Friday, with a 12:00
 * cut-off and settles two business days later.
 */
const DEMO_CALENDARS = {
  USD: {
    timeZone: 'America/New_York',
    cutOffTime: '24:00',
    settlementLagDays: 1,
    settlementCurrencies: ['USDC'],
    holidays: [],
  },
  EUR: {
    timeZone: 'Europe/Luxembourg',
    cutOffTime: '12:00',
    settlementLagDays: 2,
    settlementCurrencies: [],
    holidays: ['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-31', '2027-01-01', '2027-03-29', '2027-05-01'],
  },
};

/** True when nothing has been provisioned yet. */
export async function isEmpty(em: EntityManager): Promise<boolean> {
  return (await em.count(Issuer, {})) === 0;
}

/**
 * Demo data with which a newcomer can try every endpoint at once: an issuer, a fund, two
 * complete share classes with a primary token each and a NAV history, a distributor reachable
 * as `localhost` and `127.0.0.1`, and an investor ready to subscribe and holding tokens to redeem.
 */
export async function seedDemo(em: EntityManager, now: Date): Promise<{ distributorId: string; investorId: string; shareClassIds: string[] }> {
  return runInScope({ actor: 'seed' }, () =>
    em.transactional(async (tem) => {
      const issuer = tem.create(Issuer, { id: await nextId(tem, 'IS'), name: 'Meridian Capital Partners', lei: DEMO_ISSUER_LEI, jurisdiction: 'LU' });
      const fund = tem.create(Fund, {
        id: await nextId(tem, 'FN'),
        issuer,
        name: 'Meridian Tokenized Treasury Fund',
        description: 'Short-dated US Treasury bills, tokenized',
      });

      const classes = [
        {
          currency: 'USD',
          name: 'Meridian Treasury USD Class A',
          symbol: 'mTBILL-A',
          isin: 'LU2900000014',
          nav: '1.0000',
          apy: 512,
          sub: 10,
          mode: DeliveryMode.passthrough,
          lockup: 0,
          // The description's free text; the income policy itself is set by seedDemoIncome (demo-income.ts).
          incomePolicy: 'Accumulating',
          calendar: DEMO_CALENDARS.USD,
          dealingWeekdays: [1, 2, 3, 4, 5, 6, 7],
        },
        {
          currency: 'EUR',
          name: 'Meridian Treasury EUR Class I',
          symbol: 'mTBILL-I',
          isin: 'LU2900000022',
          nav: '100.0000',
          apy: 365,
          sub: 25,
          mode: DeliveryMode.hold,
          lockup: 30,
          incomePolicy: 'Distributing',
          calendar: DEMO_CALENDARS.EUR,
          dealingWeekdays: [1, 2, 3, 4, 5],
        },
      ];
      const shareClasses: ShareClass[] = [];
      for (const [i, c] of classes.entries()) {
        const sc = tem.create(ShareClass, {
          id: await nextId(tem, 'SC'),
          fund,
          currency: c.currency,
          provider: DEMO_PROVIDER,
          status: 'active',
          feesSubBps: c.sub,
          feesRedBps: 10,
          feesMgmtBps: 15,
          feesPerfBps: 0,
          feesWatermarkBps: 0,
          meta: { name: c.name, manager: 'Meridian Investment Management S.A.' },
          details: { isin: c.isin, jurisdiction: 'LU', minimumInvestment_fiat: 1000 },
          metrics: {
            apy_bps: c.apy,
            tvl_fiat: i === 0 ? '125430000.55' : '48210000.00',
            change7D: i === 0 ? '1.85' : '-0.42',
            currency: c.currency,
            maturity_days: -1,
          },
          overview: { assetClass: 'Money Market', description: 'Daily-dealing exposure to short-dated government bills.', riskLevel: 1 },
          subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: c.lockup, eligibleInvestors: 'PROF', distributionPolicy: c.incomePolicy },
          dealingWeekdays: c.dealingWeekdays,
          bank: {
            accountHolderName: 'Meridian Treasury Fund',
            accountNumber: ['LU290019400000000100', 'LU920019400000001100'][i],
            accountType: 'IBAN',
            bankName: 'Banque de Luxembourg',
            swiftCode: 'BLUXLULL',
            currency: c.currency,
          },
        });
        tem.create(DealingCalendar, { shareClass: sc, ...c.calendar });
        tem.create(Token, {
          id: await nextId(tem, 'TK'),
          shareClass: sc,
          chainId: DEMO_CHAIN_ID,
          contractAddress: `0x${(i + 1).toString(16).padStart(40, 'a')}`,
          name: c.name,
          symbol: c.symbol,
          decimals: 6,
          isPrimary: true,
        });
        // A gently rising daily NAV, struck at 16:00 UTC.
        const base = new Dec(c.nav);
        const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 16);
        for (let d = NAV_DAYS; d >= 1; d--) {
          const publishedAt = new Date(today - d * DAY_MS);
          const close = base
            .mul(
              new Dec(1).plus(
                new Dec(c.apy)
                  .div(10_000)
                  .mul(NAV_DAYS - d)
                  .div(365),
              ),
            )
            .toDecimalPlaces(6)
            .toFixed();
          tem.create(Nav, {
            shareClass: sc,
            entryId: entryIdOf(publishedAt),
            close,
            open: close,
            high: close,
            low: close,
            currency: c.currency,
            volume: '0',
            publishedAt,
            struckBy: 'seed',
          });
        }
        shareClasses.push(sc);
      }

      const distributor = tem.create(Distributor, { id: await nextId(tem, 'DT'), name: DEMO_DISTRIBUTOR_NAME });
      for (const hostname of ['localhost', '127.0.0.1']) tem.create(DistributorHost, { hostname, distributor });
      tem.create(DistributorWallet, { distributor, chainId: DEMO_CHAIN_ID, address: '0x00000000000000000000000000000000000d1571' });
      for (const [i, sc] of shareClasses.entries()) tem.create(ShareClassGrant, { distributor, shareClass: sc, deliveryMode: classes[i].mode });

      const investor = tem.create(Investor, {
        id: await nextId(tem, 'IN'),
        distributor,
        externalInvestorId: 'demo-user-1',
        email: 'ada@example.com',
        countryCode: 'LU',
        name: 'Ada Lovelace',
      });
      tem.create(InvestorGrant, { investor, shareClass: shareClasses[0] });
      tem.create(InvestorWallet, {
        investor,
        chainId: DEMO_CHAIN_ID,
        address: '0x000000000000000000000000000000000000ada1',
        status: WalletStatus.whitelisted,
        whitelistedAt: now,
      });
      // Tokens already held, so a redemption can be tried at once.
      await tem.flush();
      await bookOpening(tem, {
        investorId: investor.id,
        shareClassId: shareClasses[0].id,
        quantity: '1000',
        settledAt: new Date(now.getTime() - 90 * DAY_MS),
        at: now,
      });
      return { distributorId: distributor.id, investorId: investor.id, shareClassIds: shareClasses.map((s) => s.id) };
    }),
  );
}
