import { useEffect, useState } from 'react';
import { subscribe } from '../api/client';
import { InvestorPositionsDocument, NavPublishedDocument, OrderUpdatesDocument, PositionsDocument } from '../generated/graphql';
import { count, day, decimal, money, time } from '../ui/format';
import { downloadCsv } from '../ui/csv-download';
import { ErrorNote, Mono, Panel, RecordTable, Status, scrollable } from '../ui/parts';
import { Link } from '../ui/router';
import { useQuery } from '../ui/use-query';

/**
 * The current register of a share class (docs/register.md#positions): every holder with tokens now,
 * its distributor, the value at the live NAV, its part of the class and its tokens in lock-up, with
 * the same rows as CSV. Read again when an order moves (a settlement changes a holding) or a NAV is
 * published (it changes every value).
 */
export function PositionsPanel({ shareClassId }: { shareClassId: string }) {
  const q = useQuery(PositionsDocument, { shareClassId }, shareClassId);
  const { reload } = q;
  const [csvError, setCsvError] = useState<string | null>(null);
  useEffect(() => subscribe(NavPublishedDocument, { shareClassId }, () => void reload()), [shareClassId, reload]);
  useEffect(
    () =>
      subscribe(OrderUpdatesDocument, {}, (e) => e.orderUpdated.order?.shareClassId === shareClassId && e.orderUpdated.status === 'settled' && void reload()),
    [shareClassId, reload],
  );
  const p = q.data?.positions;
  return (
    <Panel title="Positions">
      {p && (
        <p>
          {count(p.holders.length, 'holder')}, {count(decimal(p.totalTokens), 'token')}
          {p.navClose !== null
            ? `, ${money(p.totalValue, p.currency)} at the live NAV of ${decimal(p.navClose)} ${p.currency} (${time(p.navPublishedAt)})`
            : ', no live NAV to value them'}
          , as of {time(p.at)}.{' '}
          <button
            type="button"
            onClick={() =>
              void downloadCsv(`/ops/positions.csv?shareClassId=${encodeURIComponent(shareClassId)}`, `positions-${shareClassId}.csv`).then(setCsvError)
            }
          >
            Download CSV
          </button>
        </p>
      )}
      <ErrorNote error={csvError} />
      <div className="table-wrap short" {...scrollable('Positions table')}>
        <RecordTable
          label="Positions"
          what="the positions"
          records={p?.holders}
          error={q.error}
          rowKey={(h) => h.investorId}
          empty="No holder yet."
          columns={[
            {
              header: 'Holder',
              cell: (h) => (
                <>
                  <Link to={['investors', h.investorId]}>{h.investorName ?? h.investorId}</Link> <Mono>{h.investorId}</Mono>
                </>
              ),
            },
            {
              header: 'Distributor',
              cell: (h) => (
                <>
                  <Link to={['distributors', h.distributorId]}>{h.distributorName}</Link> <Mono>{h.distributorId}</Mono>
                </>
              ),
            },
            { header: 'Tokens', cell: (h) => decimal(h.tokens), num: true },
            { header: `Value (${p?.currency ?? ''})`, cell: (h) => decimal(h.value, 2), num: true },
            { header: 'Share of the class', cell: (h) => `${decimal(h.sharePercent, 2)} %`, num: true },
            { header: 'Locked', cell: (h) => decimal(h.locked), num: true },
          ]}
        />
      </div>
    </Panel>
  );
}

/** An investor's positions now, one per share class, and its latest orders (newest first), read again as one of its orders moves. */
export function InvestorPositionsPanels({ investorId }: { investorId: string }) {
  const q = useQuery(InvestorPositionsDocument, { investorId, orders: { investorId } }, investorId);
  const { reload } = q;
  useEffect(() => subscribe(OrderUpdatesDocument, {}, (e) => e.orderUpdated.order?.investorId === investorId && void reload()), [investorId, reload]);
  return (
    <>
      <Panel title="Positions">
        <div className="table-wrap">
          <RecordTable
            label="Positions"
            what="the positions"
            records={q.data?.investorPositions}
            error={q.error}
            rowKey={(p) => p.shareClassId}
            empty="No tokens held."
            columns={[
              {
                header: 'Share class',
                cell: (p) => (
                  <>
                    <Link to={['share-classes', p.shareClassId]}>{p.shareClassName}</Link> <Mono>{p.shareClassId}</Mono>
                  </>
                ),
              },
              { header: 'Tokens', cell: (p) => decimal(p.tokens), num: true },
              { header: 'Live NAV', cell: (p) => (p.navClose === null ? '—' : `${decimal(p.navClose)} ${p.currency}`), num: true },
              { header: 'Value', cell: (p) => money(p.value, p.currency), num: true },
              { header: 'Locked', cell: (p) => decimal(p.locked), num: true },
            ]}
          />
        </div>
      </Panel>
      <Panel title="Orders">
        <div className="table-wrap short" {...scrollable('Orders of the investor')}>
          <RecordTable
            label="Orders"
            what="the orders"
            records={q.data?.orders.items}
            error={q.error}
            rowKey={(o) => o.id}
            empty="No order yet."
            columns={[
              { header: 'Order', cell: (o) => <Link to={['orders', o.id]}>{o.id}</Link> },
              { header: 'Placed', cell: (o) => day(o.createdAt) },
              { header: 'Type', cell: (o) => `${o.type} (${o.flow})` },
              { header: 'Share class', cell: (o) => <Mono>{o.shareClassId}</Mono> },
              { header: 'Dealing date', cell: (o) => o.dealingDate ?? '—' },
              { header: 'Amount', cell: (o) => (o.amount ? money(o.amount, o.currency) : '—'), num: true },
              { header: 'Tokens', cell: (o) => decimal(o.tokenCount), num: true },
              { header: 'Status', cell: (o) => <Status value={o.status} /> },
            ]}
          />
        </div>
        {q.data?.orders.nextCursor && (
          <p className="muted">
            The 50 newest: the <Link to={['orders']}>blotter</Link> searches them all.
          </p>
        )}
      </Panel>
    </>
  );
}
