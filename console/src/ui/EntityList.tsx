import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError, request, type Doc } from '../api/client';
import type { PageInput } from '../generated/graphql';
import { Field } from './fields';
import { RecordTable, type Column } from './parts';
import { Link } from './router';

/** One page of a list as the gateway answers it: the items and the cursor of the next page. */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string | null;
}

/** A search box over the list: what was typed becomes the query's filter; nothing typed, no filter. */
export interface ListSearch<F> {
  /** The form's accessible name. */
  name: string;
  label: string;
  placeholder?: string;
  filter: (text: string) => F;
}

/**
 * The console's list of one kind of record (issuers, investors, distributors): an optional
 * search, the record's id as the link to its page, the columns given as data, and the next page
 * on demand, appended below, as the blotter pages its orders.
 */
export function EntityList<R, F, T extends { id: string }>(props: {
  doc: Doc<R, { filter?: F | null; page?: PageInput | null }>;
  page: (data: R) => ListPage<T>;
  pageSize: number;
  search?: ListSearch<F>;
  /** The table's accessible name, e.g. `Investors`. */
  label: string;
  /** The records in words, for the loading note and the next-page button: `investors`. */
  what: string;
  empty: string;
  /** The route section of a record's page, and the header of its id column. */
  link: { section: string; header: ReactNode };
  columns: Column<T>[];
}) {
  // Read at each request: the screens pass the query and its selector inline.
  const query = useRef(props);
  query.current = props;
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<F | undefined>(undefined);
  const [records, setRecords] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);
  // A late answer to an earlier search is dropped.
  const latest = useRef(0);
  const load = useCallback(async (f: F | undefined, after: string | null) => {
    const n = ++latest.current;
    setLoading(true);
    try {
      const { doc, page, pageSize } = query.current;
      const answer = page(await request(doc, { filter: f, page: { first: pageSize, after } }));
      if (n !== latest.current) return;
      setRecords((shown) => (after && shown ? [...shown, ...answer.items] : answer.items));
      setCursor(answer.nextCursor ?? null);
      setError(null);
    } catch (e) {
      if (n === latest.current) setError(e instanceof ApiError ? e : new ApiError(String(e), 'ERROR'));
    } finally {
      if (n === latest.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    setRecords(null);
    void load(filter, null);
  }, [load, filter]);
  const { search } = props;
  return (
    <>
      {search && (
        <form
          className="filters"
          aria-label={search.name}
          onSubmit={(e) => {
            e.preventDefault();
            const t = text.trim();
            setFilter(t ? search.filter(t) : undefined);
          }}
        >
          <Field label={search.label} name="search" value={text} onChange={setText} placeholder={search.placeholder} />
          <div className="filter-buttons">
            <button type="submit" className="primary">
              Search
            </button>
          </div>
        </form>
      )}
      <RecordTable
        label={props.label}
        what={props.what}
        records={records}
        error={error}
        rowKey={(r) => r.id}
        empty={props.empty}
        columns={[
          {
            header: props.link.header,
            cell: (r) => (
              <Link to={[props.link.section, r.id]} className="mono">
                {r.id}
              </Link>
            ),
          },
          ...props.columns,
        ]}
      />
      {records && cursor && (
        <div className="pager">
          <button type="button" onClick={() => void load(filter, cursor)} disabled={loading}>
            {loading ? 'Loading…' : `More ${props.what}`}
          </button>
        </div>
      )}
    </>
  );
}
