import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, request } from '../api/client';
import {
  DealingCalendarOfDocument,
  DealingPreviewDocument,
  SetDealingCalendarDocument,
  type DealingCalendarInput,
  type DealingPreviewQuery,
} from '../generated/graphql';
import { time } from '../ui/format';
import { ActionForm } from '../ui/action-form';
import { Field } from '../ui/fields';
import { ErrorNote, Loading, Panel, RecordTable } from '../ui/parts';
import { useQuery } from '../ui/use-query';

/** Dealing dates the preview shows. */
const PREVIEW_COUNT = 5;

/** A share class without a calendar (the gateway's DEFAULT_CALENDAR), as the form starts. */
const DEFAULTS = { timeZone: 'UTC', cutOffTime: '24:00', settlementLagDays: '1', anchorDate: '2000-01-03', holidays: [] as string[], settlementCurrencies: '' };
type Draft = typeof DEFAULTS;

const zones = (): string[] => (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];

function inputOf(d: Draft): DealingCalendarInput {
  return {
    timeZone: d.timeZone,
    cutOffTime: d.cutOffTime,
    settlementLagDays: d.settlementLagDays.trim() === '' ? null : Number(d.settlementLagDays),
    anchorDate: d.anchorDate,
    holidays: d.holidays,
    settlementCurrencies: d.settlementCurrencies
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean),
  };
}

/**
 * A share class's dealing calendar: the form, a holiday picker, and the dates it gives, as the
 * gateway computes them for the calendar as typed (`dealingPreview` with the draft, before
 * anything is saved). A draft the gateway refuses shows its message in place of the preview.
 */
export function DealingCalendarPanel({ shareClassId, onSaved }: { shareClassId: string; onSaved: () => void }) {
  const q = useQuery(DealingCalendarOfDocument, { id: shareClassId }, shareClassId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [holiday, setHoliday] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const listId = useId();
  if (!q.data) return <Panel title="Dealing calendar">{q.error ? <ErrorNote error={q.error} /> : <Loading what="the calendar" />}</Panel>;
  const stored = q.data.shareClass.dealingCalendar;
  const d: Draft =
    draft ??
    (stored
      ? {
          ...stored,
          settlementLagDays: String(stored.settlementLagDays),
          holidays: [...stored.holidays],
          settlementCurrencies: stored.settlementCurrencies.join(', '),
        }
      : DEFAULTS);
  const set = (patch: Partial<Draft>) => (setSaved(null), setDraft({ ...d, ...patch }));
  const addHoliday = () => {
    if (!holiday) return;
    set({ holidays: [...new Set([...d.holidays, holiday])].sort() });
    setHoliday('');
  };
  return (
    <Panel title="Dealing calendar">
      <p className="muted">
        {stored
          ? `Set ${time(stored.updatedAt)} by ${stored.updatedBy}.`
          : 'None yet: the share class deals every weekday in UTC, with the cut-off at the end of the day.'}{' '}
        Frequencies and the cut-off day offset are the share class’s subscription and redemption fields.
      </p>
      <ActionForm
        operation="setDealingCalendar"
        label="Save calendar"
        submit={() => request(SetDealingCalendarDocument, { shareClassId, input: inputOf(d) })}
        onDone={() => {
          setSaved('Calendar saved: orders placed from now on get these dates.');
          setDraft(null);
          void q.reload();
          onSaved();
        }}
      >
        <div className="grid-fields">
          <Field
            label="Time zone"
            name="timeZone"
            value={d.timeZone}
            onChange={(v) => set({ timeZone: v })}
            list={listId}
            hint="IANA name, e.g. Europe/Luxembourg"
          />
          <datalist id={listId}>
            {zones().map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <Field
            label="Cut-off time"
            name="cutOffTime"
            value={d.cutOffTime}
            onChange={(v) => set({ cutOffTime: v })}
            hint="HH:MM in the zone; 24:00 is the end of the day"
          />
          <Field
            label="Settlement lag (business days)"
            name="settlementLagDays"
            type="number"
            step="1"
            value={d.settlementLagDays}
            onChange={(v) => set({ settlementLagDays: v })}
          />
          <Field
            label="Anchor date"
            name="anchorDate"
            type="date"
            value={d.anchorDate}
            onChange={(v) => set({ anchorDate: v })}
            hint="First dealing day of an every-N-days cycle"
          />
          <Field
            label="Settlement currencies"
            name="settlementCurrencies"
            value={d.settlementCurrencies}
            onChange={(v) => set({ settlementCurrencies: v })}
            hint={`Besides ${q.data.shareClass.currency}; comma-separated, e.g. USDC`}
          />
        </div>
        <fieldset className="group">
          <legend>Holidays (besides weekends)</legend>
          <ul className="chips" aria-label="Holidays">
            {d.holidays.map((h) => (
              <li key={h}>
                <span className="mono">{h}</span>
                <button type="button" aria-label={`Remove holiday ${h}`} onClick={() => set({ holidays: d.holidays.filter((x) => x !== h) })}>
                  ×
                </button>
              </li>
            ))}
            {!d.holidays.length && <li className="muted">none</li>}
          </ul>
          {/* Enter in the date adds it (rather than saving the calendar). */}
          <div
            className="action-form inline"
            onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLElement).getAttribute('name') === 'holidays' && (e.preventDefault(), addHoliday())}
          >
            <Field label="Holiday date" name="holidays" type="date" value={holiday} onChange={setHoliday} />
            <button type="button" onClick={addHoliday} disabled={!holiday}>
              Add holiday
            </button>
          </div>
        </fieldset>
      </ActionForm>
      {saved && (
        <p className="notice" role="status">
          {saved}
        </p>
      )}
      <Preview shareClassId={shareClassId} draft={inputOf(d)} />
    </Panel>
  );
}

/** The gateway's dates for the draft, read again (after a pause in typing) whenever it changes. */
function Preview({ shareClassId, draft }: { shareClassId: string; draft: DealingCalendarInput }) {
  const key = JSON.stringify(draft);
  const [result, setResult] = useState<DealingPreviewQuery['dealingPreview'] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const latest = useRef(0);
  useEffect(() => {
    const n = ++latest.current;
    const timer = setTimeout(() => {
      request(DealingPreviewDocument, { shareClassId, draft: JSON.parse(key) as DealingCalendarInput, count: PREVIEW_COUNT })
        .then((r) => n === latest.current && (setResult(r.dealingPreview), setError(null)))
        .catch((e) => n === latest.current && setError(e instanceof ApiError ? e : new ApiError(String(e), 'ERROR')));
    }, 250);
    return () => clearTimeout(timer);
  }, [shareClassId, key]);
  return (
    <section aria-label="Dealing preview" className="preview" aria-busy={!result && !error}>
      <h3>Next dealing dates (computed by the gateway)</h3>
      {error ? (
        <ErrorNote error={error} />
      ) : !result ? (
        <Loading what="the preview" />
      ) : (
        <div className="columns">
          <DatesTable caption="Subscriptions" zone={result.timeZone} dates={result.subscriptions} />
          <DatesTable caption="Redemptions" zone={result.timeZone} dates={result.redemptions} />
        </div>
      )}
      {result && !error && <p className="muted small">Orders may be placed in {result.currencies.join(', ')}.</p>}
    </section>
  );
}

function DatesTable({ caption, zone, dates }: { caption: string; zone: string; dates: DealingPreviewQuery['dealingPreview']['subscriptions'] }) {
  // Formatting only: the instants come from the gateway, shown in the calendar's zone and in UTC.
  const inZone = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: '2-digit',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
  const inUtc = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', day: '2-digit', month: 'short', hour12: false });
  return (
    <div>
      <h4>{caption}</h4>
      <RecordTable
        label={`${caption}: next dealing dates`}
        what="the dealing dates"
        records={dates}
        rowKey={(x) => x.dealingDate}
        empty="No dealing date."
        columns={[
          { header: 'Dealing date', cell: (x) => x.dealingDate, className: 'mono' },
          {
            header: `Cut-off (${zone})`,
            cell: (x) => (
              <>
                {inZone.format(new Date(x.cutOffAt))} <span className="muted small">({inUtc.format(new Date(x.cutOffAt))} UTC)</span>
              </>
            ),
          },
          { header: 'Settlement', cell: (x) => x.expectedSettlementDate, className: 'mono' },
        ]}
      />
    </div>
  );
}
