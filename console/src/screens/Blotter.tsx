import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, request, subscribe } from '../api/client';
import {
  BlotterChoicesDocument,
  BlotterDocument,
  OrderRowByIdDocument,
  OrderUpdatesDocument,
  type OrderFilter,
  type OrderRowFragment,
} from '../generated/graphql';
import { count, decimal, time } from '../ui/format';
import { Field, Select } from '../ui/fields';
import { ErrorNote, Page, Status, scrollable } from '../ui/parts';
import { Link } from '../ui/router';
import { useQuery } from '../ui/use-query';

const PAGE = 50;
const STATUSES = ['created', 'submitted', 'pending', 'accepted', 'rejected', 'settled', 'failed', 'cancelled'];
/** How long a row that just arrived or changed stays highlighted. */
const HIGHLIGHT_MS = 4000;

interface Filters {
  flow: string;
  status: string;
  distributorId: string;
  shareClassId: string;
  /** `YYYY-MM-DD`: what is dealt that day. */
  dealingDate: string;
  search: string;
}
const NO_FILTERS: Filters = { flow: '', status: '', distributorId: '', shareClassId: '', dealingDate: '', search: '' };

/** An order id as the two flows spell it; anything else searched for is an externalRef. */
const looksLikeOrderId = (s: string) => /^(OR\d{6,}|ord_[A-Za-z0-9_-]+)$/.test(s);

function matches(o: OrderRowFragment, f: Filters): boolean {
  const q = f.search.trim();
  return (
    (!f.flow || o.flow === f.flow) &&
    (!f.status || o.status === f.status) &&
    (!f.distributorId || o.distributorId === f.distributorId) &&
    (!f.shareClassId || o.shareClassId === f.shareClassId) &&
    (!f.dealingDate || o.dealingDate === f.dealingDate) &&
    (!q || o.id === q || o.externalRef === q)
  );
}

/**
 * The order book, both flows and surfaces, newest first. Live: every order transition arrives
 * over graphql-ws; a new order that matches the filters is put on top, a changed one is updated
 * in place, and either is highlighted for a few seconds.
 */
export function Blotter() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [rows, setRows] = useState<OrderRowFragment[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [fresh, setFresh] = useState<Record<string, number>>({});
  const choices = useQuery(BlotterChoicesDocument, {}, 'choices');
  const appliedRef = useRef(applied);
  appliedRef.current = applied;

  const load = async (f: Filters, after: string | null) => {
    setLoading(true);
    setError(null);
    try {
      const q = f.search.trim();
      if (q && looksLikeOrderId(q)) {
        const r = await request(OrderRowByIdDocument, { id: q }).catch((e: ApiError) => {
          if (e.code === 'NOT_FOUND') return null;
          throw e;
        });
        setRows(r && matches(r.order, f) ? [r.order] : []);
        setCursor(null);
        return;
      }
      const filter: OrderFilter = {
        flow: (f.flow || null) as OrderFilter['flow'],
        status: f.status || null,
        distributorId: f.distributorId || null,
        shareClassId: f.shareClassId || null,
        dealingDate: f.dealingDate || null,
        externalRef: q || null,
      };
      const r = await request(BlotterDocument, { filter, page: { first: PAGE, after } });
      setRows((prev) => (after ? [...prev, ...r.orders.items] : r.orders.items));
      setCursor(r.orders.nextCursor ?? null);
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    void load(applied, null);
  }, [applied]);

  useEffect(
    () =>
      subscribe(OrderUpdatesDocument, {}, ({ orderUpdated: u }) => {
        const order = u.order;
        if (!order) return;
        setRows((prev) => {
          const i = prev.findIndex((o) => o.id === order.id);
          // Events of one order can arrive twice (at-least-once) or late: the higher sequence wins.
          if (i >= 0 && prev[i].eventSeq > order.eventSeq) return prev;
          if (!matches(order, appliedRef.current)) return i >= 0 ? prev.filter((o) => o.id !== order.id) : prev;
          if (i >= 0) return prev.map((o) => (o.id === order.id ? order : o));
          return [order, ...prev];
        });
        setFresh((prev) => ({ ...prev, [order.id]: Date.now() }));
      }),
    [],
  );

  // Highlights fade on their own.
  useEffect(() => {
    if (!Object.keys(fresh).length) return;
    const t = setTimeout(() => setFresh((prev) => Object.fromEntries(Object.entries(prev).filter(([, at]) => Date.now() - at < HIGHLIGHT_MS))), 1000);
    return () => clearTimeout(t);
  }, [fresh]);

  const distributors = choices.data?.distributors.items ?? [];
  const shareClasses = choices.data?.shareClasses ?? [];
  const scName = useMemo(() => Object.fromEntries(shareClasses.map((s) => [s.id, s.meta.name])), [shareClasses]);

  return (
    <Page
      title="Blotter"
      actions={
        <span className="live" aria-label="Live updates on">
          ● live
        </span>
      }
    >
      <form
        className="filters"
        aria-label="Filter orders"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...filters });
        }}
      >
        <Select
          label="Flow"
          name="flow"
          value={filters.flow}
          onChange={(flow) => setFilters({ ...filters, flow })}
          options={[
            ['', 'Both flows'],
            ['one_step', 'One-step'],
            ['two_step', 'Two-step'],
          ]}
        />
        <Select
          label="Status"
          name="status"
          value={filters.status}
          onChange={(status) => setFilters({ ...filters, status })}
          options={[['', 'Any status'], ...STATUSES.map((s): [string, string] => [s, s])]}
        />
        <Select
          label="Distributor"
          name="distributor"
          value={filters.distributorId}
          onChange={(distributorId) => setFilters({ ...filters, distributorId })}
          options={[['', 'All distributors'], ...distributors.map((d): [string, string] => [d.id, `${d.id} · ${d.name}`])]}
        />
        <Select
          label="Share class"
          name="shareClass"
          value={filters.shareClassId}
          onChange={(shareClassId) => setFilters({ ...filters, shareClassId })}
          options={[['', 'All share classes'], ...shareClasses.map((s): [string, string] => [s.id, `${s.id} · ${s.meta.name}`])]}
        />
        <Field
          label="Dealing date"
          name="dealingDate"
          type="date"
          value={filters.dealingDate}
          onChange={(dealingDate) => setFilters({ ...filters, dealingDate })}
        />
        <Field
          label="Order id or externalRef"
          name="search"
          value={filters.search}
          onChange={(search) => setFilters({ ...filters, search })}
          placeholder="ord_… / OR000001 / ref"
        />
        <div className="filter-buttons">
          <button type="submit" className="primary">
            Apply
          </button>
          <button
            type="button"
            onClick={() => {
              setFilters(NO_FILTERS);
              setApplied(NO_FILTERS);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={error} />
      {/* Not a RecordTable: rows carry the order's id and status for the live updates, and a fresh one is highlighted. */}
      <div className="table-wrap" {...scrollable('Order table')}>
        <table className="grid" aria-label="Orders" aria-busy={loading}>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Created</th>
              <th scope="col">Dealing</th>
              <th scope="col">Flow</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Amount / tokens
              </th>
              <th scope="col">Distributor</th>
              <th scope="col">Investor</th>
              <th scope="col">Share class</th>
              <th scope="col">External ref</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr key={o.id} className={fresh[o.id] ? 'fresh' : undefined} data-order-id={o.id} data-status={o.status}>
                <td>
                  <Link to={['orders', o.id]} className="mono">
                    {o.id}
                  </Link>
                </td>
                <td>{time(o.createdAt)}</td>
                <td>{o.dealingDate ?? <span className="muted">—</span>}</td>
                <td>
                  {o.flow === 'one_step' ? 'one-step' : 'two-step'} <span className="muted">{o.surface}</span>
                </td>
                <td>{o.type}</td>
                <td>
                  <Status value={o.status} />
                </td>
                <td className="num">{o.type === 'subscription' ? `${decimal(o.amount, 4)} ${o.currency ?? ''}` : count(decimal(o.tokenCount), 'token')}</td>
                <td className="mono">{o.distributorId}</td>
                <td className="mono">{o.investorId}</td>
                <td title={scName[o.shareClassId]} className="mono">
                  {o.shareClassId}
                </td>
                <td>{o.externalRef ?? <span className="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!loading && !rows.length && !error && <p className="muted">No orders match.</p>}
      <div className="pager">
        {loading && <span role="status">Loading…</span>}
        {cursor && !loading && (
          <button type="button" onClick={() => void load(applied, cursor)}>
            Load older orders
          </button>
        )}
      </div>
    </Page>
  );
}
