import { useEffect, type ReactNode } from 'react';
import { subscribe } from '../api/client';
import { DeliveryOutcomesDocument, OrderDetailDocument, OrderUpdatesDocument, type OrderFullFragment } from '../generated/graphql';
import { actor, bps, decimal, money, time } from '../ui/format';
import { OrderRefusal } from './order-refusal';
import { ErrorNote, Facts, Loading, Mono, Page, Panel, Status } from '../ui/parts';
import { Link } from '../ui/router';
import { useChainLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';
import { DeliveryTable } from './DeliveryTable';
import { OrderActions } from './order-actions';

/** One order: every field, its history as a timeline, the supply-side exchange, its webhook deliveries, and the actions its state allows. */
export function OrderDetail({ id }: { id: string }) {
  const q = useQuery(OrderDetailDocument, { id, orderId: id }, id);
  const { reload } = q;
  // Its settlement transaction's outcome (confirmed, reverted) shows as it becomes final.
  useChainLive(reload, (tx) => tx.orderId === id);
  // Live: this order's transitions, and delivery attempts (which of them are this order's is
  // not known before reading, so they are read again at most once a second).
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | null = null;
    const soon = () => {
      pending ??= setTimeout(() => {
        pending = null;
        void reload();
      }, 1000);
    };
    const stopOrders = subscribe(OrderUpdatesDocument, {}, (m) => m.orderUpdated.orderId === id && void reload());
    const stopDeliveries = subscribe(DeliveryOutcomesDocument, {}, soon);
    return () => {
      stopOrders();
      stopDeliveries();
      if (pending) clearTimeout(pending);
    };
  }, [id, reload]);

  if (!q.data) return <Page title={`Order ${id}`}>{q.error ? <ErrorNote error={q.error} /> : <Loading what="the order" />}</Page>;
  const o = q.data.order;
  const sub = o.type === 'subscription';
  return (
    <Page
      title={
        <>
          Order <Mono>{o.id}</Mono> <Status value={o.status} />
        </>
      }
      actions={<Link to={['orders']}>← Blotter</Link>}
    >
      <ErrorNote error={q.error} />
      <OrderRefusal reason={o.failureReason} investorId={o.investorId} />
      <Panel title="Actions">
        <OrderActions order={o} onDone={() => void reload()} />
      </Panel>
      <div className="columns">
        <Panel title="Order">
          <Facts
            items={[
              ['Flow', `${o.flow === 'one_step' ? 'one-step' : 'two-step'} (surface ${o.surface})`],
              ['Type', o.type],
              ['Status', <Status value={o.status} />],
              [sub ? 'Amount' : 'Tokens', sub ? money(o.amount, o.currency) : decimal(o.tokenCount)],
              ['Currency', o.currency],
              [
                'Distributor',
                <>
                  <Link to={['distributors', o.distributorId]}>{o.distributor.name}</Link> <Mono>{o.distributorId}</Mono> / <Mono>{o.partnerId}</Mono>
                </>,
              ],
              [
                'Investor',
                <>
                  <Link to={['investors', o.investorId]}>{o.investor.email ?? o.investor.name ?? o.investorId}</Link> <Mono>{o.investorId}</Mono> /{' '}
                  <Mono>{o.userId}</Mono>
                </>,
              ],
              [
                'Share class',
                <>
                  <Link to={['share-classes', o.shareClassId]}>{o.shareClass.meta.name}</Link> <Mono>{o.shareClassId}</Mono>
                </>,
              ],
              ['External ref', o.externalRef],
              ['Chain', o.chainId],
              ['Wallet', orderWallet(o)],
              ['Delivery', o.deliveryMode && `${o.deliveryMode}${o.deliveryWallet ? ` → ${o.deliveryWallet}` : ''}`],
              ['Dealing date', o.dealingDate],
              ['Cut-off', o.cutOffAt == null ? null : <time dateTime={new Date(o.cutOffAt).toISOString()}>{time(o.cutOffAt)}</time>],
              ['Expected settlement', o.expectedSettlementDate],
              ['Created', `${time(o.createdAt)} by ${actor(o.createdBy, o.distributor.name)}`],
              ['Updated', `${time(o.updatedAt)} by ${actor(o.updatedBy, o.distributor.name)}`],
              ['Event sequence', String(o.eventSeq)],
            ]}
          />
        </Panel>
        <Panel title="Pricing and settlement">
          <Facts
            items={[
              sub ? ['Subscription fee', o.feesSubBps == null ? null : bps(o.feesSubBps)] : ['Redemption fee', o.feesRedBps == null ? null : bps(o.feesRedBps)],
              ['Fees total', money(o.amountFeesTotal, o.currency)],
              ...(sub ? [['Payable', money(o.amountPayable, o.currency)] as [string, string]] : []),
              ['NAV at pricing', o.nav == null ? null : `${decimal(o.nav)}${o.navPublishedAt ? ` (published ${time(o.navPublishedAt)})` : ''}`],
              ['Tokens estimated', decimal(o.amountTokensEstimated)],
              ['Settlement NAV', decimal(o.settlementNav)],
              ['Settlement tokens', decimal(o.settlementTokens)],
              [sub ? 'Settlement amount' : 'Proceeds (less the fee)', money(o.settlementAmount, o.currency)],
              ['Transfer hash', o.transferHash && <Mono>{o.transferHash}</Mono>],
              ['Failure reason', o.failureReason],
              ...settlementTransactionFacts(o.settlementTransaction),
            ]}
          />
        </Panel>
      </div>
      <Panel title="Status history">
        <ol className="timeline">
          {o.statusHistory.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              <Status value={e.status} />
              <time dateTime={new Date(e.at).toISOString()}>{time(e.at)}</time>
              <span>by {actor(e.by, o.distributor.name)}</span>
              {e.note && <q>{e.note}</q>}
            </li>
          ))}
        </ol>
      </Panel>
      <Panel title="Supply-side exchange">
        {o.supplyRefs ? (
          <pre className="raw" tabIndex={0} aria-label="Supply references, raw">
            {JSON.stringify(o.supplyRefs, null, 2)}
          </pre>
        ) : (
          <p className="muted">Not pushed to a supply-side platform.</p>
        )}
      </Panel>
      <Panel title="Webhook deliveries of its events">
        <DeliveryTable deliveries={q.data.webhookDeliveries} onChange={() => void reload()} />
      </Panel>
    </Page>
  );
}

/** The order's settlement transaction on chain: where it stands, its hash (linked to the chain's explorer when configured), why it failed. */
function settlementTransactionFacts(tx: OrderFullFragment['settlementTransaction']): [string, ReactNode][] {
  if (!tx) return [];
  const hash =
    tx.hash &&
    (tx.explorerUrl ? (
      <a href={tx.explorerUrl} target="_blank" rel="noreferrer">
        <Mono>{tx.hash}</Mono>
      </a>
    ) : (
      <Mono>{tx.hash}</Mono>
    ));
  return [
    ['Chain transaction', `${tx.status}${tx.blockNumber ? `, block ${tx.blockNumber}` : ''}, ${tx.confirmations}/${tx.requiredConfirmations} confirmations`],
    ['Transaction hash', hash],
    ['Replaced hashes', tx.hashes.length > 1 ? tx.hashes.slice(0, -1).map((h) => <Mono key={h}>{h} </Mono>) : null],
    ['Gas used', tx.gasUsed],
    ['Revert reason', tx.revertReason],
    ['Last error', tx.lastError],
  ];
}

/**
 * The wallet the order uses. A one-step order may name none: the investor's wallet in use is
 * taken from its profile at acceptance and kept in `deliveryWallet` (what settlement mints to or
 * burns from); a two-step order keeps the investor's wallet in `walletAddress`, and `deliveryWallet`
 * is where its tokens go (the distributor's under `hold`), shown under Delivery.
 */
function orderWallet(o: { flow: string; walletAddress?: string | null; deliveryWallet?: string | null }) {
  const wallet = o.flow === 'one_step' ? (o.deliveryWallet ?? o.walletAddress) : o.walletAddress;
  if (wallet) return <Mono>{wallet}</Mono>;
  return o.flow === 'one_step' ? <span className="muted">the investor's wallet in use, taken when the order is accepted</span> : null;
}
