import { useMemo } from 'react';
import { BookDocument, type BookQuery } from '../generated/graphql';
import { ChartFigure, seriesColor, type ChartSeries } from '../ui/ChartFigure';
import { decimal, time } from '../ui/format';
import { ErrorNote, Loading, Page, Panel, RecordTable, scrollable, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { useBookLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';

type Book = BookQuery['book'];

/**
 * The book at a glance. Each picture is a uPlot chart for the eye with
 * the table of the same figures under it, which is what the keyboard and screen readers read.
 * An order's move or a NAV reads the book again.
 */
export function BookScreen() {
  const q = useQuery(BookDocument, {}, 'book');
  const { reload } = q;
  useBookLive(reload);
  return (
    <Page title="The book">
      <ErrorNote error={q.error} />
      {q.data ? <BookView book={q.data.book} /> : !q.error && <Loading what="the book" />}
    </Page>
  );
}

function BookView({ book }: { book: Book }) {
  return (
    <>
      <p className="muted">As of {time(book.at)}.</p>
      <Aum points={book.aum} />
      <Flows flows={book.dealingFlows} />
      <Waiting waiting={book.waiting} />
      <Panel title="Next cut-offs">
        <RecordTable
          label="Next cut-offs"
          what="cut-offs"
          records={book.cutOffs}
          rowKey={(c) => c.shareClassId}
          empty="No active share class."
          columns={[
            { header: 'Share class', cell: (c) => <Link to={['share-classes', c.shareClassId]}>{c.shareClassName}</Link> },
            { header: 'Subscriptions: dealing date', cell: (c) => c.subscriptionDealingDate },
            { header: 'Subscriptions: cut-off', cell: (c) => time(c.subscriptionCutOffAt) },
            { header: 'Redemptions: dealing date', cell: (c) => c.redemptionDealingDate },
            { header: 'Redemptions: cut-off', cell: (c) => time(c.redemptionCutOffAt) },
          ]}
        />
      </Panel>
      <Panel title="Register and chain">
        <p className="muted">As the chain follower last saw the chain; a share class's page reconciles against the chain now.</p>
        <RecordTable
          label="Register and chain"
          what="share classes"
          records={book.chain}
          rowKey={(c) => c.shareClassId}
          empty="No share class."
          columns={[
            { header: 'Share class', cell: (c) => <Link to={['share-classes', c.shareClassId]}>{c.shareClassName}</Link> },
            { header: 'Status', cell: (c) => <Status value={c.status} /> },
            { header: 'Token', cell: (c) => (c.tokenAddress ? `${c.tokenAddress.slice(0, 10)}… on ${c.chainId}` : '—'), className: 'mono' },
            { header: 'Register total', cell: (c) => decimal(c.registerTotal), num: true },
            { header: 'Settlements on chain', cell: (c) => c.settlementsInFlight, num: true },
            { header: 'Unexplained movements', cell: (c) => c.unexplainedMovements, num: true },
          ]}
        />
      </Panel>
    </>
  );
}

function Aum({ points }: { points: Book['aum'] }) {
  const chart = useMemo(() => {
    const x = [...new Set(points.map((p) => p.publishedAt))].sort((a, b) => a - b);
    const index = new Map(x.map((t, i) => [t, i]));
    const classes = [...new Map(points.map((p) => [p.shareClassId, `${p.shareClassName} (${p.currency})`])).entries()];
    const series: ChartSeries[] = classes.map(([id, label], i) => {
      const values: (number | null)[] = x.map(() => null);
      for (const p of points) if (p.shareClassId === id) values[index.get(p.publishedAt)!] = Number(p.aum);
      return { label, values, color: seriesColor(i) };
    });
    return { x: x.map((t) => t / 1000), series };
  }, [points]);
  return (
    <ChartFigure title="Assets under management (tokens × NAV)" x={chart.x} series={chart.series}>
      <div className="scroll-table" {...scrollable('Assets under management, every NAV')}>
        <RecordTable
          label="Assets under management"
          what="assets under management"
          records={points}
          rowKey={(p) => `${p.shareClassId}:${p.publishedAt}`}
          empty="No NAV published in the last year."
          columns={[
            { header: 'Share class', cell: (p) => p.shareClassName },
            { header: 'NAV published', cell: (p) => time(p.publishedAt) },
            { header: 'NAV', cell: (p) => decimal(p.nav), num: true },
            { header: 'Tokens', cell: (p) => decimal(p.tokens), num: true },
            { header: 'Assets under management', cell: (p) => `${decimal(p.aum, 2)} ${p.currency}`, num: true },
          ]}
        />
      </div>
    </ChartFigure>
  );
}

function Flows({ flows }: { flows: Book['dealingFlows'] }) {
  const chart = useMemo(() => {
    // Amounts, not counts: the amount subscribed per currency, and the tokens redeemed (on their own axis).
    const dates = [...new Set(flows.map((f) => f.dealingDate))].sort();
    const currencies = [...new Set(flows.map((f) => f.currency))].sort();
    const of = (d: string, c: string | null, k: 'subscribedAmount' | 'redeemedTokens') =>
      flows.filter((f) => f.dealingDate === d && (c === null || f.currency === c)).reduce((n, f) => n + Number(f[k]), 0);
    const series: ChartSeries[] = [
      ...currencies.map((c, i) => ({ label: 'Subscribed', unit: c, values: dates.map((d) => of(d, c, 'subscribedAmount')), color: seriesColor(i) })),
      { label: 'Redeemed', unit: 'tokens', values: dates.map((d) => of(d, null, 'redeemedTokens')), color: seriesColor(currencies.length) },
    ];
    return { x: dates.map((_, i) => i), labels: dates, series };
  }, [flows]);
  return (
    <ChartFigure title="Subscriptions and redemptions per dealing date" x={chart.x} xLabels={chart.labels} series={chart.series} bars>
      <RecordTable
        label="Subscriptions and redemptions per dealing date"
        what="dealing dates"
        records={flows}
        rowKey={(f) => `${f.dealingDate}:${f.currency}`}
        empty="No order dealt in the last 60 days or ahead."
        columns={[
          { header: 'Dealing date', cell: (f) => f.dealingDate },
          { header: 'Currency', cell: (f) => f.currency },
          { header: 'Subscriptions', cell: (f) => f.subscriptions, num: true },
          { header: 'Amount subscribed', cell: (f) => decimal(f.subscribedAmount, 2), num: true },
          { header: 'Redemptions', cell: (f) => f.redemptions, num: true },
          { header: 'Tokens redeemed', cell: (f) => decimal(f.redeemedTokens), num: true },
        ]}
      />
    </ChartFigure>
  );
}

const FLOW_NAME: Record<string, string> = { one_step: 'One-step', two_step: 'Two-step' };

function Waiting({ waiting }: { waiting: Book['waiting'] }) {
  const chart = useMemo(
    () => ({
      x: waiting.map((_, i) => i),
      // On two lines, so that each fits its slot at 1,280 px.
      labels: waiting.map((w) => `${FLOW_NAME[w.flow] ?? w.flow}\n${w.status}`),
      series: [{ label: 'Orders', values: waiting.map((w) => w.count), color: seriesColor(2) }],
    }),
    [waiting],
  );
  return (
    <ChartFigure title="Orders waiting, per state" x={chart.x} xLabels={chart.labels} series={chart.series} bars>
      <RecordTable
        label="Orders waiting, per state"
        what="orders waiting"
        records={waiting}
        rowKey={(w) => `${w.flow}/${w.status}`}
        empty="No state waits."
        columns={[
          { header: 'Flow', cell: (w) => FLOW_NAME[w.flow] ?? w.flow },
          { header: 'State', cell: (w) => w.status },
          { header: 'Orders', cell: (w) => w.count, num: true },
        ]}
      />
    </ChartFigure>
  );
}
