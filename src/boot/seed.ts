import { Access } from '../access/access';
import type { EntityManager } from '@mikro-orm/postgresql';
import { nextId } from '../common/ids';
import { ApiCredential } from '../modules/auth/api-credential.entity';
import { OpsToken } from '../modules/auth/ops-token.entity';
import { ChainTransaction, ChainTxStatus } from '../modules/chain/chain-transaction.entity';
import type { IssuedCredential } from '../modules/auth/api-credential.service';
import type { Services } from '../services';
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
import { statusesOf, TRANSITIONS } from '../modules/order/order-states';
import { OrderFlow } from '../modules/order/order.entity';
import { logger } from '../common/logger';

/** The embedded chain (anvil): the demo's tokens are deployed there at the first start. */
export const DEMO_CHAIN_ID = '31337';
export const DEMO_PROVIDER = 'supply-sim';
const NAV_DAYS = 300;
const DEMO_ISSUER_LEI = '5493001KJTIIGC8Y1R12';
const DEMO_DISTRIBUTOR_NAME = 'Demo Wealth Partners';
const DAY_MS = 86_400_000;

/**
 * The demo share classes' dealing calendars, so `npm start` shows dealing dates at once: the USD
 * class deals on New York business days with a 16:00 cut-off and also takes USDC; the EUR class
 * deals on Luxembourg business days with a 12:00 cut-off and settles two business days later.
 */
const DEMO_CALENDARS = {
  USD: {
    timeZone: 'America/New_York',
    cutOffTime: '16:00',
    settlementLagDays: 1,
    settlementCurrencies: ['USDC'],
    holidays: ['2026-11-26', '2026-12-25', '2027-01-01', '2027-01-18', '2027-02-15', '2027-05-31', '2027-07-05'],
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
          calendar: DEMO_CALENDARS.USD,
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
          calendar: DEMO_CALENDARS.EUR,
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
          subRedemption: { subFreq: 1, redFreq: 1, cutOffTime_days: 0, lockup: c.lockup, eligibleInvestors: 'PROF', distributionPolicy: 'Accumulating' },
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

/** A status of one flow, as the transition table names them. */
type StatusOf<F extends OrderFlow> = (typeof TRANSITIONS)[F][number]['to'];

/** What demo orders are moved by: the services, as ops, exactly as the doors move them. */
const DEMO_ORDERS_ACTOR = 'demo-seed';
const DEMO_TRANSFER_HASH = `0x${'5eed'.repeat(16)}`;
/** One transfer settles one order (docs/custody.md): the one-step demo settlement names its own. */
const DEMO_ONE_STEP_TRANSFER_HASH = `0x${'5e7d'.repeat(16)}`;

/**
 * A one-step order settles at its dealing date's NAV (docs/custody.md): the demo publishes it,
 * at the share class's latest close, at noon UTC that date (the same date in the zones of the demo calendars), unless there is one.
 */
async function publishDealingDateNav(em: EntityManager, orderId: string): Promise<void> {
  const { Order } = await import('../modules/order/order.entity');
  const order = await em.findOneOrFail(Order, { id: orderId }, { populate: ['shareClass'] });
  const latest = await em.findOne(Nav, { shareClass: order.shareClass.id }, { orderBy: { publishedAt: 'desc' } });
  if (!latest || !order.dealingDate || latest.publishedAt.toISOString().slice(0, 10) >= order.dealingDate) return;
  const publishedAt = new Date(`${order.dealingDate}T12:00:00Z`);
  em.create(Nav, {
    shareClass: order.shareClass,
    entryId: entryIdOf(publishedAt),
    close: latest.close,
    open: latest.close,
    high: latest.close,
    low: latest.close,
    currency: latest.currency,
    volume: '0',
    publishedAt,
  });
  await em.flush();
}

/**
 * The demo blotter: an order in every state of both flows, each brought there through the services
 * (the two-step pushes go to the configured supply-side platform, the simulator in development),
 * so their history, events and holdings are those of real orders. Statuses come from the flows'
 * own lists: a new state without a way here fails the seeding test.
 */
export async function seedDemoOrders(
  em: EntityManager,
  services: Services,
  demo: { distributorId: string; investorId: string; shareClassIds: string[] },
): Promise<Record<string, string[]>> {
  const ctx = () => ({ em: em.fork(), access: Access.ops(DEMO_ORDERS_ACTOR) });
  const parties = { distributorId: demo.distributorId, investorId: demo.investorId, shareClassId: demo.shareClassIds[0] };
  const twoStep = services.twoStep;
  const oneStep = services.oneStepOrder;
  const transferHash = await demoTransferHash(em, services, demo.shareClassIds[0]);
  const outcome = (orderId: string, name: 'accepted' | 'rejected' | 'settled' | 'failed') =>
    twoStep.recordSupplyOutcome(ctx(), {
      orderId,
      outcome: name,
      ...(name === 'rejected' || name === 'failed' ? { reason: `demo: ${name} by the platform` } : {}),
      ...(name === 'settled' ? { transferHash } : {}),
    });
  const TWO_STEP: Record<StatusOf<OrderFlow.two_step>, (id: string) => Promise<unknown>> = {
    created: async () => undefined,
    cancelled: (id) => twoStep.cancel(ctx(), id, 'demo: changed my mind'),
    submitted: (id) => twoStep.push(ctx(), id),
    accepted: async (id) => (await twoStep.push(ctx(), id), outcome(id, 'accepted')),
    rejected: async (id) => (await twoStep.push(ctx(), id), outcome(id, 'rejected')),
    settled: async (id) => (await twoStep.push(ctx(), id), await outcome(id, 'accepted'), outcome(id, 'settled')),
    failed: async (id) => (await twoStep.push(ctx(), id), await outcome(id, 'accepted'), outcome(id, 'failed')),
  };
  const ONE_STEP: Record<StatusOf<OrderFlow.one_step>, (id: string) => Promise<unknown>> = {
    pending: async () => undefined,
    cancelled: (id) => oneStep.cancel(ctx(), id),
    accepted: (id) => oneStep.accept(ctx(), id),
    rejected: (id) => oneStep.reject(ctx(), id, "demo: outside the investor's mandate"),
    // On a chain the gateway writes to, the mint is real and the order settles at its confirmation depth.
    settled: async (id) => (
      await oneStep.accept(ctx(), id),
      await publishDealingDateNav(em.fork(), id),
      services.oneStepSettlement.settle(ctx(), id, services.settlementOnChain ? undefined : DEMO_ONE_STEP_TRANSFER_HASH)
    ),
    failed: async (id) => (await oneStep.accept(ctx(), id), services.oneStepSettlement.fail(ctx(), id, 'demo: transfer reverted')),
  };
  const placed: Record<string, string[]> = { two_step: [], one_step: [] };
  await runInScope({ actor: DEMO_ORDERS_ACTOR }, async () => {
    for (const [i, status] of statusesOf(OrderFlow.two_step).entries()) {
      const order = await twoStep.create(ctx(), { ...parties, amountSubscription: 1000 * (i + 2), externalRef: `demo-${status}` });
      try {
        await TWO_STEP[status as StatusOf<OrderFlow.two_step>](order.id);
      } catch (err) {
        // Without a reachable supply-side platform the pushed states are left out, not the start.
        logger.warn({ err: (err as Error).message, status }, 'demo two-step order left created');
      }
      placed.two_step.push(order.id);
    }
    for (const [i, status] of statusesOf(OrderFlow.one_step).entries()) {
      const order = await oneStep.placeSubscription(ctx(), { ...parties, amount: String(1500 * (i + 1)) });
      await ONE_STEP[status as StatusOf<OrderFlow.one_step>](order.id);
      placed.one_step.push(order.id);
    }
    // A pending redemption too: its tokens are held back from further redemptions.
    placed.one_step.push((await oneStep.placeRedemption(ctx(), { ...parties, tokenCount: '25' })).id);
  });
  return placed;
}

/**
 * Whether the database holds nothing but what seedDemo and issueDemoAccess put there (or nothing
 * at all): the only database into which a start may hand out credentials. Anything provisioned
 * otherwise (another issuer or distributor, a token or key issued by a person) is real data.
 */
export async function holdsOnlyDemoData(em: EntityManager): Promise<boolean> {
  const [issuers, demoIssuers, ...others] = await Promise.all([
    em.count(Issuer, {}),
    em.count(Issuer, { lei: DEMO_ISSUER_LEI }),
    em.count(Distributor, { $or: [{ id: { $ne: DEMO_DISTRIBUTOR } }, { name: { $ne: DEMO_DISTRIBUTOR_NAME } }] }),
    em.count(OpsToken, { name: { $nin: [DEMO_ACCESS, DEMO_APPROVER] } }),
    em.count(ApiCredential, { createdBy: { $ne: DEMO_ACCESS } }),
  ]);
  return issuers === demoIssuers && others.every((n) => n === 0);
}

/**
 * The transfer a demo two-step settlement names. On a chain the gateway reads, the settlement is
 * checked there (a Transfer of the class's token to the investor's wallet): the demo holding's
 * mint (bringDemoOnChain) is such a transfer. Without a chain, a placeholder nobody checks.
 */
async function demoTransferHash(em: EntityManager, services: Services, shareClassId: string): Promise<string> {
  if (!services.settlementOnChain) return DEMO_TRANSFER_HASH;
  const token = await em.findOne(Token, { shareClass: shareClassId, chainId: DEMO_CHAIN_ID, isPrimary: true });
  const mint =
    token &&
    (await em.findOne(
      ChainTransaction,
      { chainId: DEMO_CHAIN_ID, purpose: 'deploy.mint', toAddress: token.contractAddress, status: ChainTxStatus.confirmed },
      { orderBy: { id: 'desc' } },
    ));
  return mint?.hash ?? DEMO_TRANSFER_HASH;
}

/** The actor and token name of what a development start hands out. */
const DEMO_ACCESS = 'demo-console';
/** The development start's second ops principal: `approver` only (four eyes need two people). */
const DEMO_APPROVER = 'demo-approver';
export const DEMO_DISTRIBUTOR = 'DT000001';

/**
 * A development start hands out fresh credentials for trying both doors at once: an ops token
 * for the console and, when the demo distributor exists, a surface-O key and secret for it.
 * The previous start's are revoked first, so only the latest printed ones work.
 */
export async function issueDemoAccess(
  em: EntityManager,
  services: Services,
): Promise<{ opsToken: string; approverToken: string; surfaceO: IssuedCredential | null }> {
  return runInScope({ actor: DEMO_ACCESS }, async () => {
    // Rotation: the previous start's tokens stop working; these last OPS_TOKEN_TTL_SECONDS. The
    // console's token is `admin`; a second principal, `approver` only, approves what it requests.
    const { token: opsToken } = await services.opsToken.rotate(em, DEMO_ACCESS, ['admin']);
    const { token: approverToken } = await services.opsToken.rotate(em, DEMO_APPROVER, ['approver']);
    if (!(await em.count(Distributor, { id: DEMO_DISTRIBUTOR }))) return { opsToken, approverToken, surfaceO: null };
    const ctx = { em, access: Access.ops(DEMO_ACCESS) };
    for (const old of await em.find(ApiCredential, { distributor: DEMO_DISTRIBUTOR, createdBy: DEMO_ACCESS, revokedAt: null })) {
      await services.apiCredential.revoke(ctx, old.apiKey);
    }
    return { opsToken, approverToken, surfaceO: await services.apiCredential.issue(ctx, DEMO_DISTRIBUTOR) };
  });
}
