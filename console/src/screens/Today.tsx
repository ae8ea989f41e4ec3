import { TodayDocument, type TodayQuery } from '../generated/graphql';
import { count, decimal, money, time } from '../ui/format';
import { ErrorNote, Loading, Page, Panel, RecordTable, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { useApprovalsLive, useBookLive, useChainLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';
import { KIND } from './Approvals';

type Today = TodayQuery['today'];

/**
 * The desk's home screen: what is to be done today, each item linking to the screen that does
 * it, and the book's size per share class. One `today` query, read again on every order move,
 * NAV, approval request and final chain transaction.
 */
export function TodayScreen() {
  const q = useQuery(TodayDocument, {}, 'today');
  const { reload } = q;
  useBookLive(reload);
  useApprovalsLive(reload);
  useChainLive(reload);
  return (
    <Page title="Today">
      <ErrorNote error={q.error} />
      {q.data ? <TodayView today={q.data.today} /> : !q.error && <Loading what="today's work" />}
    </Page>
  );
}

function TodayView({ today }: { today: Today }) {
  const more = today.ordersToAcceptCount - today.ordersToAccept.length;
  return (
    <>
      <p className="muted">
        As of {time(today.at)} (your browser's time). Dealing dates are read in each share class's dealing zone. <Link to={['book']}>The book</Link> has the
        history.
      </p>
      <Panel title={`Orders to accept (${today.ordersToAcceptCount})`}>
        <RecordTable
          label="Orders to accept"
          what="orders"
          records={today.ordersToAccept}
          rowKey={(o) => o.id}
          empty="No order waits for acceptance."
          columns={[
            { header: 'Order', cell: (o) => <Link to={['orders', o.id]}>{o.id}</Link>, className: 'mono' },
            { header: 'Share class', cell: (o) => o.shareClassName },
            { header: 'Type', cell: (o) => o.type },
            { header: 'Amount or tokens', cell: (o) => (o.amount != null ? money(o.amount, o.currency) : count(decimal(o.tokenCount), 'token')), num: true },
            { header: 'Dealing date', cell: (o) => o.dealingDate ?? '—' },
            { header: 'Placed', cell: (o) => time(o.placedAt) },
          ]}
        />
        {more > 0 && (
          <p>
            {count(more, 'more order')} oldest first: <Link to={['orders']}>the Blotter</Link> filters by status.
          </p>
        )}
      </Panel>
      <Panel title={`NAVs due (${today.navsDue.length})`}>
        <RecordTable
          label="NAVs due"
          what="NAVs due"
          records={today.navsDue}
          rowKey={(n) => `${n.shareClassId}/${n.dealingDate}`}
          empty="Every dealing date up to today has its NAV."
          columns={[
            { header: 'Share class', cell: (n) => <Link to={['share-classes', n.shareClassId]}>{n.shareClassName}</Link> },
            { header: 'Dealing date', cell: (n) => `${n.dealingDate} (${n.timeZone})` },
            { header: 'Open orders', cell: (n) => n.openOrders, num: true },
            {
              header: 'Waiting for approval',
              cell: (n) => (n.pendingNavs ? <Link to={['approvals']}>{count(n.pendingNavs, 'NAV')} in Approvals</Link> : 'none'),
            },
          ]}
        />
      </Panel>
      <Panel title={`Settlements due (${today.settlementsDue.length})`}>
        <RecordTable
          label="Settlements due"
          what="settlements due"
          records={today.settlementsDue}
          rowKey={(s) => `${s.shareClassId}/${s.dealingDate}`}
          empty="No accepted order is due to settle."
          columns={[
            { header: 'Share class', cell: (s) => <Link to={['share-classes', s.shareClassId]}>{s.shareClassName}</Link> },
            { header: 'Dealing date', cell: (s) => s.dealingDate },
            { header: 'Expected settlement', cell: (s) => s.expectedSettlementDate },
            { header: 'Accepted orders', cell: (s) => s.orders, num: true },
            { header: "Dealing date's NAV", cell: (s) => (s.navPublished ? 'published: ready to settle' : 'not published yet') },
          ]}
        />
      </Panel>
      <Panel title="Approvals waiting">
        <RecordTable
          label="Approvals waiting"
          what="requests"
          records={today.approvalsWaiting}
          rowKey={(a) => a.kind}
          empty="No request waits for a decision."
          columns={[
            { header: 'Kind', cell: (a) => <Link to={['approvals']}>{KIND[a.kind] ?? a.kind}</Link> },
            { header: 'Waiting', cell: (a) => a.count, num: true },
          ]}
        />
      </Panel>
      <Panel title="Failed transactions (last seven days)">
        <RecordTable
          label="Failed transactions"
          what="transactions"
          records={today.failedTransfers}
          rowKey={(t) => t.id}
          empty="No transaction of the gateway failed in the last seven days."
          columns={[
            { header: 'Purpose', cell: (t) => t.purpose },
            { header: 'Status', cell: (t) => <Status value={t.status} /> },
            {
              header: 'Concerns',
              cell: (t) =>
                t.orderId ? (
                  <Link to={['orders', t.orderId]}>{t.orderId}</Link>
                ) : t.investorId ? (
                  <Link to={['investors', t.investorId]}>{t.investorId}</Link>
                ) : (
                  `chain ${t.chainId}`
                ),
            },
            { header: 'Reason', cell: (t) => t.revertReason ?? '—' },
            { header: 'At', cell: (t) => time(t.at) },
          ]}
        />
      </Panel>
      <Panel title="Unexplained chain movements">
        <RecordTable
          label="Unexplained chain movements"
          what="movements"
          records={today.unexplainedMovements}
          rowKey={(u) => u.shareClassId}
          empty="The chain follower saw nothing the register does not follow."
          columns={[
            { header: 'Share class (reconcile on its page)', cell: (u) => <Link to={['share-classes', u.shareClassId]}>{u.shareClassName}</Link> },
            { header: 'Movements', cell: (u) => u.movements, num: true },
            { header: 'Tokens', cell: (u) => decimal(u.tokens), num: true },
          ]}
        />
      </Panel>
      <Panel title="Assets under management">
        <RecordTable
          label="Assets under management now"
          what="share classes"
          records={today.aum}
          rowKey={(a) => a.shareClassId}
          empty="No share class has a NAV yet."
          columns={[
            { header: 'Share class', cell: (a) => <Link to={['share-classes', a.shareClassId]}>{a.shareClassName}</Link> },
            { header: 'Tokens', cell: (a) => decimal(a.tokens), num: true },
            { header: 'Live NAV', cell: (a) => `${decimal(a.nav)} (${time(a.navPublishedAt)})`, num: true },
            { header: 'AUM', cell: (a) => money(a.aum, a.currency), num: true },
            { header: 'Change since the NAV before', cell: (a) => (a.change == null ? '—' : signed(money(a.change, a.currency))), num: true },
          ]}
        />
      </Panel>
    </>
  );
}

const signed = (s: string) => (s.startsWith('-') ? `−${s.slice(1)}` : `+${s}`);
