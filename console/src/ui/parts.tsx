import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';

export function Page({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const shown = useRef<string | null>(null);
  // A new screen announces itself to screen readers and keyboard users start from its title;
  // a screen read again (a JSX title is a new object each render) keeps the focus where it is.
  useEffect(() => {
    const text = ref.current?.textContent ?? null;
    if (text !== shown.current) {
      shown.current = text;
      ref.current?.focus();
    }
  });
  return (
    <section className="page">
      <header className="page-head">
        <h1 tabIndex={-1} ref={ref}>
          {title}
        </h1>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Panel({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={id}>
      <header className="panel-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A refusal, as the gateway worded it. */
export function ErrorNote({ error }: { error: ApiError | Error | string | null | undefined }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      <span className="message">{readable(typeof error === 'string' ? error : error.message)}</span>
    </p>
  );
}

/**
 * The gateway's message as a person reads it: its code stays out (the words say what happened), and
 * a field it begins with (`asOf must be …`, `details.isin is required`) is said in words (`As of
 * must be …`), since no field stands beside this note to name it.
 */
export function readable(message: string): string {
  const said = message.replace(/^[a-z][A-Za-z]*(?:\.[A-Za-z_]+)*(?= )/, (field) =>
    field
      .split('.')
      .pop()!
      .replace(/_/g, ' ')
      .replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`),
  );
  return said.charAt(0).toUpperCase() + said.slice(1);
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{value.replace(/_/g, ' ')}</span>;
}

/** Definition list of label/value pairs. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Mono({ children }: { children: ReactNode }) {
  return <code className="mono">{children}</code>;
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      onClick={() =>
        void (async () => {
          try {
            await navigator.clipboard.writeText(text);
            setDone(true);
          } catch {
            setDone(false);
          }
        })()
      }
    >
      {done ? 'Copied' : label}
    </button>
  );
}

/** Props of a container that may scroll: keyboard users reach it by Tab and scroll it with the arrow keys. */
export const scrollable = (label: string) => ({ tabIndex: 0, role: 'region', 'aria-label': label }) as const;

/** A column of a record table: its header and the cell of one record. */
export interface Column<T> {
  header: ReactNode;
  cell: (record: T) => ReactNode;
  num?: boolean;
  className?: string;
}

/**
 * The one shape of the console's lists: the gateway's refusal, a loading note until the first
 * answer, then a table with a row saying so when nothing is there. Every list screen is this.
 */
export function RecordTable<T>(props: {
  label: string;
  what: string;
  records: T[] | null | undefined;
  error?: Error | null;
  columns: Column<T>[];
  rowKey: (r: T) => string;
  empty: string;
}) {
  const { records, columns } = props;
  if (!records) return props.error ? <ErrorNote error={props.error} /> : <Loading what={props.what} />;
  return (
    <>
      <ErrorNote error={props.error} />
      <table className="grid" aria-label={props.label}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={c.num ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={props.rowKey(r)}>
              {columns.map((c, i) => (
                <td key={i} className={[c.num ? 'num' : '', c.className ?? ''].join(' ').trim() || undefined}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
          {!records.length && (
            <tr>
              <td colSpan={columns.length} className="muted">
                {props.empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </>
  );
}
