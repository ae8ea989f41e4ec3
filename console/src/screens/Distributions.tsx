import { useState } from 'react';
import { request } from '../api/client';
import {
  DeclareDistributionDocument,
  DistributionEntitlementsDocument,
  DistributionPreviewDocument,
  DistributionsDocument,
  PayDistributionDocument,
  ShareClassListDocument,
  type DeclareDistributionInput,
  type DistributionPreviewQuery,
  type DistributionsQuery,
} from '../generated/graphql';
import { may, useMe } from '../ui/me';
import { count, decimal, time } from '../ui/format';

/** Entitlements are shown unrounded: the rounding rule and its residue are the point (docs/income.md). */
const exact = (v: string | null | undefined) => decimal(v, 30);
import { ActionForm } from '../ui/action-form';
import { Field, Select } from '../ui/fields';
import { ErrorNote, Loading, Mono, Page, Panel, RecordTable, Status, scrollable } from '../ui/parts';
import { href } from '../ui/router';
import { useQuery } from '../ui/use-query';
import { IncomePolicy } from './IncomePolicy';
import { PayFailedAgain } from './PayFailedAgain';

/** Distributions of a share class (docs/income.md): declare with a preview of the entitlements, pay, follow. */
export function Distributions({ shareClassId }: { shareClassId?: string }) {
  const classes = useQuery(ShareClassListDocument, { page: { first: 200 } }, 'list');
  const options: [string, string][] = [
    ['', 'Choose a share class'],
    ...(classes.data?.shareClassPage.items ?? []).map((s): [string, string] => [s.id, `${s.id} ${s.meta.name}`]),
  ];
  return (
    <Page title="Distributions">
      <ErrorNote error={classes.error} />
      <Select
        label="Share class"
        value={shareClassId ?? ''}
        options={options}
        onChange={(v) => (window.location.hash = v ? href('distributions', v) : href('distributions'))}
      />
      {shareClassId && <ClassDistributions shareClassId={shareClassId} key={shareClassId} />}
    </Page>
  );
}

function ClassDistributions({ shareClassId }: { shareClassId: string }) {
  const q = useQuery(DistributionsDocument, { shareClassId }, shareClassId);
  const me = useMe();
  if (!q.data) return q.error ? <ErrorNote error={q.error} /> : <Loading what="the distributions" />;
  const { distributionPolicy: policy, distributions } = q.data;
  return (
    <>
      <IncomePolicy shareClassId={shareClassId} policy={policy} onSaved={() => void q.reload()} />
      {may(me, 'declareDistribution') && <DeclarePanel shareClassId={shareClassId} onDeclared={() => void q.reload()} />}
      <Panel
        title="Declared distributions"
        actions={
          <button type="button" onClick={() => void q.reload()} disabled={q.loading}>
            Refresh
          </button>
        }
      >
        {/* Not a RecordTable: a distribution opens a second row under its own, with its entitlements. */}
        <div className="table-wrap" {...scrollable('Distribution table')}>
          <table className="grid" aria-label="Distributions">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Period</th>
                <th scope="col">Pay date</th>
                <th scope="col">Rate</th>
                <th scope="col">Paid as</th>
                <th scope="col" className="num">
                  Gross
                </th>
                <th scope="col" className="num">
                  Paid
                </th>
                <th scope="col" className="num">
                  Residue
                </th>
                <th scope="col">Status</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {distributions.map((d) => (
                <DistributionRow key={d.id} d={d} onPaid={() => void q.reload()} />
              ))}
              {!distributions.length && (
                <tr>
                  <td colSpan={10} className="muted">
                    No distribution declared.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      </Panel>
    </>
  );
}

type Row = DistributionsQuery['distributions'][number];

function DistributionRow({ d, onPaid }: { d: Row; onPaid: () => void }) {
  const me = useMe();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      await request(PayDistributionDocument, { id: d.id });
      onPaid();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <tr>
        <td>
          <Mono>{d.id}</Mono>
        </td>
        <td>{d.periodFrom === d.periodTo ? `record date ${d.periodTo}` : `${d.periodFrom} – ${d.periodTo}`}</td>
        <td>{d.payDate}</td>
        <td>{d.amountPerToken ? `${d.amountPerToken} per token` : `${d.ratePerTokenPerDay ?? ''} per token per day`}</td>
        <td>{d.payment}</td>
        <td className="num">
          {exact(d.gross)} {d.currency}
        </td>
        <td className="num">
          {d.paid ? `${exact(d.paid)} ${d.currency}` : '—'}
          {d.tokens && <div className="muted">{count(d.tokens, 'token')}</div>}
        </td>
        <td className="num">{d.residue ? exact(d.residue) : '—'}</td>
        <td>
          <Status value={d.status} />
          {d.paidAt && <div className="muted">{time(d.paidAt)}</div>}
        </td>
        <td>
          {d.status !== 'paid' && may(me, 'payDistribution') && (
            <button type="button" onClick={() => void pay()} disabled={busy} aria-label={`Pay distribution ${d.id}`}>
              {busy ? 'Paying…' : 'Pay'}
            </button>
          )}
          <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} aria-label={`Entitlements of distribution ${d.id}`}>
            Entitlements
          </button>
          <ErrorNote error={error} />
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={10}>
            <Entitlements id={d.id} retryable={d.payment === 'reinvest' && d.status !== 'declared'} onRetried={onPaid} />
          </td>
        </tr>
      )}
    </>
  );
}

function Entitlements({ id, retryable, onRetried }: { id: string; retryable: boolean; onRetried: () => void }) {
  const q = useQuery(DistributionEntitlementsDocument, { id }, id);
  if (!q.data) return q.error ? <ErrorNote error={q.error} /> : <Loading what="the entitlements" />;
  const failed = q.data.distributionEntitlements.filter((e) => e.status === 'failed').length;
  return (
    <>
      {retryable && failed > 0 && <PayFailedAgain id={id} failed={failed} onSent={() => (void q.reload(), onRetried())} />}
      <RecordTable
        label={`Entitlements of distribution ${id}`}
        what="the entitlements"
        records={q.data.distributionEntitlements}
        rowKey={(e) => e.investorId}
        empty="No entitlement."
        columns={[
          { header: 'Investor', cell: (e) => <Mono>{e.investorId}</Mono> },
          { header: 'Distributor', cell: (e) => <Mono>{e.distributorId}</Mono> },
          { header: 'Token-days', cell: (e) => exact(e.tokenDays), num: true },
          { header: 'Entitled', cell: (e) => exact(e.gross), num: true },
          {
            header: 'Paid',
            cell: (e) => (
              <>
                {e.amount ? exact(e.amount) : '—'}
                {e.tokens && <div className="muted">{count(e.tokens, 'token')}</div>}
              </>
            ),
            num: true,
          },
          {
            header: 'Status',
            cell: (e) => (
              <>
                <Status value={e.status} />
                {e.failureReason && <div role="note">{e.failureReason}</div>}
              </>
            ),
          },
        ]}
      />
    </>
  );
}

/** The declaration's fields: a period with a rate per token per day, or a record date with an amount per token. */
function DeclarePanel({ shareClassId, onDeclared }: { shareClassId: string; onDeclared: () => void }) {
  const [f, setF] = useState({ periodFrom: '', periodTo: '', recordDate: '', payDate: '', ratePerTokenPerDay: '', amountPerToken: '' });
  const [preview, setPreview] = useState<DistributionPreviewQuery['distributionPreview'] | null>(null);
  const set = (k: keyof typeof f) => (v: string) => (setF({ ...f, [k]: v }), setPreview(null));
  const input = (): DeclareDistributionInput => {
    const given = Object.fromEntries(Object.entries(f).filter(([, v]) => v.trim() !== ''));
    return { shareClassId, payDate: f.payDate, ...given };
  };
  return (
    <Panel title="Declare a distribution">
      <ActionForm
        label="Preview entitlements"
        name="Preview entitlements"
        submit={async () => setPreview((await request(DistributionPreviewDocument, { input: input() })).distributionPreview)}
      >
        <Field label="Period from" name="periodFrom" type="date" value={f.periodFrom} onChange={set('periodFrom')} />
        <Field label="Period to" name="periodTo" type="date" value={f.periodTo} onChange={set('periodTo')} />
        <Field
          label="Record date"
          name="recordDate"
          type="date"
          value={f.recordDate}
          onChange={set('recordDate')}
          hint="instead of a period, with an amount per token"
        />
        <Field label="Pay date" name="payDate" type="date" value={f.payDate} onChange={set('payDate')} required />
        <Field label="Rate per token per day" name="ratePerTokenPerDay" value={f.ratePerTokenPerDay} onChange={set('ratePerTokenPerDay')} />
        <Field label="Amount per token" name="amountPerToken" value={f.amountPerToken} onChange={set('amountPerToken')} />
      </ActionForm>
      {preview && (
        <>
          <p>
            {count(preview.holders.length, 'holder')}, {exact(preview.gross)} {preview.currency} in total, paid as {preview.payment} on {preview.payDate}.
          </p>
          <RecordTable
            label="Preview"
            what="the preview"
            records={preview.holders}
            rowKey={(h) => h.investorId}
            empty="No holder."
            columns={[
              { header: 'Investor', cell: (h) => <Mono>{h.investorId}</Mono> },
              { header: 'Days held', cell: (h) => h.daysHeld, num: true },
              { header: 'Token-days', cell: (h) => exact(h.tokenDays), num: true },
              { header: 'Entitled', cell: (h) => exact(h.gross), num: true },
            ]}
          />
          <ActionForm
            label="Declare"
            name="Declare the distribution"
            submit={() => request(DeclareDistributionDocument, { input: input() })}
            onDone={() => (setPreview(null), onDeclared())}
          >
            {null}
          </ActionForm>
        </>
      )}
    </Panel>
  );
}
