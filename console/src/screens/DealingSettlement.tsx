import { useEffect, useRef, useState } from 'react';
import { request, subscribe } from '../api/client';
import {
  ChainTransactionsDocument,
  DealingSettlementPreviewDocument,
  OrdersOutcomeDocument,
  OrderUpdatesDocument,
  type ChainTxFragment,
  SettleDealingDateDocument,
  type OrdersOutcomeQuery,
  type SettleDealingDateMutation,
  type SettlementPlanFragment,
} from '../generated/graphql';
import { count, decimal, time, txName } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { ConfirmAction } from '../ui/confirm-action';
import { Field } from '../ui/fields';
import { Facts, Mono, Panel, RecordTable, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { ChainTxState } from './ChainTransaction';
import { useChainLive } from '../ui/use-chain-live';

type Outcome = SettleDealingDateMutation['settleDealingDate'];
/** How often a run still in flight is read besides its live messages. */
const SAFETY_READ_MS = 3000;
type OrderOutcome = OrdersOutcomeQuery['orders']['items'][number];

/**
 * A dealing date settled from the page: the gateway's preview (its orders priced at the date's
 * NAV and checked on chain; its 409 while that NAV is not published), then the settlement, then
 * each order until it is settled or failed. Every figure is the gateway's; the page adds none.
 */
export function DealingSettlementPanel({ shareClassId, currency, onSettled }: { shareClassId: string; currency: string; onSettled: () => void }) {
  const [date, setDate] = useState('');
  const [plan, setPlan] = useState<SettlementPlanFragment | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return (
    <Panel title="Dealing-date settlement">
      <ActionForm
        label="Preview settlement"
        className="inline"
        submit={() => (setPlan(null), setOutcome(null), request(DealingSettlementPreviewDocument, { shareClassId, dealingDate: date }))}
        onDone={(r) => setPlan((r as { dealingSettlementPreview: SettlementPlanFragment }).dealingSettlementPreview)}
      >
        <Field label="Dealing date" name="dealingDate" type="date" value={date} onChange={(v) => (setDate(v), setPlan(null))} required />
      </ActionForm>
      {plan && !outcome && <Plan plan={plan} currency={currency} />}
      {plan && !outcome && (
        <ConfirmAction
          operation="settleDealingDate"
          label="Settle dealing date"
          title={`Settle ${plan.dealingDate}?`}
          description={
            <p>
              {count(plan.rows.filter((r) => !r.refusal).length, 'order is', 'orders are')} minted or burned on chain {plan.chainId} at NAV {plan.nav};{' '}
              {count(plan.rows.filter((r) => r.refusal).length, 'fails', 'fail')} with the reason shown. Orders already in a transaction are not sent again.
            </p>
          }
          confirmLabel="Settle"
          run={() => request(SettleDealingDateDocument, { shareClassId, dealingDate: plan.dealingDate })}
          onDone={(r) => (setOutcome((r as SettleDealingDateMutation).settleDealingDate), onSettled())}
        />
      )}
      {outcome && <SettlementOutcome shareClassId={shareClassId} outcome={outcome} onFinal={onSettled} />}
    </Panel>
  );
}

function Plan({ plan, currency }: { plan: SettlementPlanFragment; currency: string }) {
  return (
    <section aria-label="Settlement preview">
      <Facts
        items={[
          ['NAV used', `${plan.nav} ${currency}, published ${time(plan.navPublishedAt)}`],
          [
            'Token',
            <>
              <Mono>{plan.tokenAddress}</Mono> on chain {plan.chainId}
            </>,
          ],
          ['Orders', String(plan.rows.length)],
          ['Tokens minted', decimal(plan.tokensMinted)],
          ['Tokens burned', decimal(plan.tokensBurned)],
          ['Redemption proceeds', `${decimal(plan.proceeds)} ${currency}`],
          ['Already in a transaction', plan.inFlight.length ? plan.inFlight.join(', ') : 'none'],
        ]}
      />
      <RecordTable
        label="Orders of the dealing date"
        what="orders"
        records={plan.rows}
        rowKey={(r) => r.orderId}
        empty="No accepted one-step order on this date."
        columns={[
          {
            header: 'Order',
            cell: (r) => (
              <Link to={['orders', r.orderId]} className="mono">
                {r.orderId}
              </Link>
            ),
          },
          { header: 'Type', cell: (r) => r.type },
          { header: 'Wallet', cell: (r) => r.wallet, className: 'mono' },
          { header: 'Tokens', cell: (r) => decimal(r.tokens), num: true },
          { header: 'Amount', cell: (r) => decimal(r.amount), num: true },
          { header: 'Check on chain', cell: (r) => (r.refusal ? <span className="differs">fails: {r.refusal}</span> : 'settles') },
        ]}
      />
    </section>
  );
}

/**
 * The run's orders and its batch transactions, read again as a batch becomes final or one of
 * its orders moves, until each order is settled or failed (a batch settles its orders at its
 * confirmation depth).
 */
function SettlementOutcome({ shareClassId, outcome, onFinal }: { shareClassId: string; outcome: Outcome; onFinal: () => void }) {
  const [orders, setOrders] = useState<OrderOutcome[] | null>(null);
  const [batches, setBatches] = useState<ChainTxFragment[]>(outcome.transactions);
  const head = useRef<HTMLParagraphElement>(null);
  // The confirming button is gone: keyboard users continue from the outcome.
  useEffect(() => head.current?.focus(), []);
  const ids = new Set(outcome.rows.map((r) => r.orderId));
  const done = orders !== null && orders.every((o) => ['settled', 'failed'].includes(o.status));
  const read = async () => {
    const purposes = [...new Set(outcome.transactions.map((t) => t.purpose))];
    const reads = Promise.all([
      request(OrdersOutcomeDocument, { filter: { shareClassId, dealingDate: outcome.dealingDate, flow: 'one_step' }, page: { first: 1000 } }),
      Promise.all(purposes.map((purpose) => request(ChainTransactionsDocument, { chainId: outcome.chainId, purpose, last: 100 }))),
    ]);
    const r = await reads.catch(() => null);
    if (!r) return;
    setOrders(r[0].orders.items.filter((x) => ids.has(x.id)));
    const fresh = new Map(r[1].flatMap((t) => t.chainTransactions).map((t) => [t.id, t]));
    setBatches(outcome.transactions.map((t) => fresh.get(t.id) ?? t));
  };
  const batchIds = new Set(outcome.transactions.map((t) => t.id));
  useChainLive(read, (tx) => batchIds.has(tx.chainTransactionId), !done);
  useEffect(() => (done ? undefined : subscribe(OrderUpdatesDocument, {}, (m) => ids.has(m.orderUpdated.orderId) && void read())), [done]);
  useEffect(() => {
    if (done) return void onFinal();
    // What became final before the subscriptions reached the gateway is not replayed to them: the run
    // is read now, and again every few seconds until each order is final, besides each live message.
    void read();
    const timer = setInterval(() => void read(), SAFETY_READ_MS);
    return () => clearInterval(timer);
  }, [done]);
  const count = (s: string) => orders?.filter((o) => o.status === s).length ?? 0;
  return (
    <section aria-label="Settlement outcome">
      <p className={!done ? 'muted' : count('failed') ? 'not-ready' : 'notice'} role="status" tabIndex={-1} ref={head}>
        {done
          ? `Dealing date ${outcome.dealingDate}: ${count('settled')} settled, ${count('failed')} failed.`
          : `Dealing date ${outcome.dealingDate} sent: waiting for the chain…`}
      </p>
      <ul className="plain" aria-label="Settlement transactions">
        {batches.map((t) => (
          <li key={t.id}>
            {txName(t)} <span className="muted">(transaction {t.id})</span>: <ChainTxState tx={t} />
          </li>
        ))}
        {!batches.length && <li className="muted">No transaction: nothing to mint or burn.</li>}
      </ul>
      <RecordTable
        label="Outcome by order"
        what="the orders"
        records={orders}
        rowKey={(o) => o.id}
        empty="No order was settled in this run."
        columns={[
          {
            header: 'Order',
            cell: (o) => (
              <Link to={['orders', o.id]} className="mono">
                {o.id}
              </Link>
            ),
          },
          { header: 'Status', cell: (o) => <Status value={o.status} /> },
          { header: 'Reason', cell: (o) => o.failureReason ?? outcome.failed.find((f) => f.orderId === o.id)?.reason ?? '' },
        ]}
      />
    </section>
  );
}
