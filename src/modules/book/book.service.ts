import type { Clock } from '../../common/clock';
import type { ServiceContext } from '../../access/service-context';
import { ShareClass } from '../share-class';
import type { DealingService } from '../dealing';
import { ChainMovementKind, FINAL_TX_STATUSES } from '../chain';
import { OrderFlow, TRANSITIONS } from '../order';
import { bookAumRows, bookChainRows, bookFlowRows, bookWaitingRows } from './book.queries';
import type { Book, BookAumPoint, BookChainStatus, BookCutOff, BookDealingFlow, BookWaitingOrders } from './book.types';

const DAY_MS = 86_400_000;
/** How far back the pictures reach: a year of NAVs, two months of dealing dates. */
const AUM_DAYS = 366;
const FLOW_DAYS = 60;

/** Orders that end here count for nothing in a dealing date's flows. */
const NOT_DEALT = ['rejected', 'cancelled', 'failed'];

/** The states some move leaves, per flow, read from the state machines: an order there waits on someone. */
export const WAITING: [string, string[]][] = Object.values(OrderFlow).map((flow) => [
  flow,
  [...new Set(TRANSITIONS[flow].flatMap((t) => (t.from ? [t.from] : [])))],
]);

/**
 * The book at a glance for the desk's home screen. Each series is one statement over the tables
 * that hold it (the register's ledger, NAVs, orders, chain intents and movements), summed by
 * PostgreSQL in numeric so every figure stays exact; only the cut-offs are computed here, by the
 * same calendar code placement uses.
 */
export class BookService {
  constructor(
    private readonly clock: Clock,
    private readonly dealing: DealingService,
  ) {}

  async book(ctx: ServiceContext): Promise<Book> {
    ctx.access.requireOps();
    const at = this.clock.now();
    const [aum, dealingFlows, waiting, cutOffs, chain] = [
      await this.aum(ctx, at),
      await this.flows(ctx, at),
      await this.waiting(ctx),
      await this.cutOffs(ctx, at),
      await this.chain(ctx),
    ];
    return { at, aum, dealingFlows, waiting, cutOffs, chain };
  }

  private async aum(ctx: ServiceContext, at: Date): Promise<BookAumPoint[]> {
    const rows = await bookAumRows(ctx.em, new Date(at.getTime() - AUM_DAYS * DAY_MS));
    return rows.map((r) => ({
      shareClassId: r.share_class_id,
      shareClassName: r.name,
      publishedAt: new Date(r.published_at),
      nav: r.nav,
      currency: r.currency,
      tokens: r.tokens,
      aum: r.aum,
    }));
  }

  private async flows(ctx: ServiceContext, at: Date): Promise<BookDealingFlow[]> {
    const rows = await bookFlowRows(ctx.em, new Date(at.getTime() - FLOW_DAYS * DAY_MS).toISOString().slice(0, 10), NOT_DEALT);
    return rows.map((r) => ({
      dealingDate: r.dealing_date,
      currency: r.currency,
      subscriptions: r.subscriptions,
      subscribedAmount: r.subscribed,
      redemptions: r.redemptions,
      redeemedTokens: r.redeemed,
    }));
  }

  private async waiting(ctx: ServiceContext): Promise<BookWaitingOrders[]> {
    const rows = await bookWaitingRows(ctx.em, WAITING);
    // Every waiting state, in the state machine's order, including those no order is in.
    const count = new Map(rows.map((r) => [`${r.flow}/${r.status}`, r.count]));
    return WAITING.flatMap(([flow, statuses]) => statuses.map((status) => ({ flow, status, count: count.get(`${flow}/${status}`) ?? 0 })));
  }

  private async cutOffs(ctx: ServiceContext, at: Date): Promise<BookCutOff[]> {
    const classes = await ctx.em.find(ShareClass, { status: 'active' }, { orderBy: { id: 'asc' } });
    const out: BookCutOff[] = [];
    for (const sc of classes) {
      // Cached per share class (dropped by a calendar change): asks the database once per class at most.
      const rules = await this.dealing.rulesOf(ctx, sc);
      const sub = this.dealing.datesOf(rules, sc, 'subscription', at);
      const red = this.dealing.datesOf(rules, sc, 'redemption', at);
      out.push({
        shareClassId: sc.id,
        shareClassName: sc.meta.name,
        subscriptionDealingDate: sub.dealingDate,
        subscriptionCutOffAt: sub.cutOffAt,
        redemptionDealingDate: red.dealingDate,
        redemptionCutOffAt: red.cutOffAt,
      });
    }
    return out.sort((a, b) => a.subscriptionCutOffAt.getTime() - b.subscriptionCutOffAt.getTime() || a.shareClassId.localeCompare(b.shareClassId));
  }

  private async chain(ctx: ServiceContext): Promise<BookChainStatus[]> {
    const rows = await bookChainRows(ctx.em, [...FINAL_TX_STATUSES], [ChainMovementKind.unknown_holder, ChainMovementKind.issuance]);
    return rows.map((r) => ({
      shareClassId: r.id,
      shareClassName: r.name,
      tokenAddress: r.token,
      chainId: r.chain_id,
      registerTotal: r.register,
      settlementsInFlight: r.in_flight,
      unexplainedMovements: r.unexplained,
      status: !r.token ? 'no token' : r.unexplained ? 'differs' : r.in_flight ? 'settling' : 'in step',
    }));
  }
}
