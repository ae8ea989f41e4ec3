import { useState } from 'react';
import { request } from '../api/client';
import { NavCorrectionPreviewDocument, RequestNavCorrectionDocument, type NavCorrectionPreviewQuery } from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Field, Select } from '../ui/fields';
import { decimal, isDecimal, time } from '../ui/format';
import { may, useMe } from '../ui/me';
import { Facts, Mono, Panel, RecordTable } from '../ui/parts';
import { Link } from '../ui/router';

type Preview = NavCorrectionPreviewQuery['navCorrectionPreview'];

/**
 * Correcting a confirmed NAV (docs/approvals.md#correcting-a-nav): the NAV, its new close and why;
 * the gateway's preview first (navCorrectionPreview: the orders it re-prices, and each settled
 * order's compensation, booked only above the class's tolerance), then the request, which waits in
 * Approvals for a second principal. The request is offered only for the preview shown: a changed
 * NAV or close asks for a new preview.
 */
export function NavCorrectionPanel({
  navs,
  onRequested,
}: {
  navs: { id: string; entryId: string; close: string; publishedAt: number }[];
  onRequested: () => void;
}) {
  const me = useMe();
  const [navId, setNavId] = useState('');
  const [close, setClose] = useState('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!may(me, 'requestNavCorrection')) return null;
  const changed =
    <T,>(set: (v: T) => void) =>
    (v: T) => (set(v), setPreview(null), setNotice(null));
  return (
    <Panel title="Correct a NAV">
      <ActionForm
        label="Preview the correction"
        name="Preview a NAV correction"
        className="inline"
        submit={async () => {
          if (!isDecimal(close)) throw new Error('close must be a decimal number, e.g. 1.0234');
          return (await request(NavCorrectionPreviewDocument, { navId, close: close.trim() })).navCorrectionPreview;
        }}
        onDone={(p) => setPreview(p as Preview)}
      >
        <Select
          label="NAV"
          name="navId"
          value={navId}
          onChange={changed(setNavId)}
          options={[['', 'Choose…'], ...navs.map((n): [string, string] => [n.id, `${time(n.publishedAt)} · ${n.close}`])]}
        />
        <Field label="Corrected close" name="close" value={close} onChange={changed(setClose)} required placeholder="1.0234" />
      </ActionForm>
      {preview && <CorrectionPreview preview={preview} />}
      {preview && (
        <ActionForm
          operation="requestNavCorrection"
          label="Request the correction"
          className="inline"
          submit={() => request(RequestNavCorrectionDocument, { navId: preview.navId, close: preview.correctedClose, reason })}
          onDone={(r) => {
            const id = (r as { requestNavCorrection: { id: string } }).requestNavCorrection.id;
            setNotice(
              `Correction of NAV ${preview.entryId} to ${preview.correctedClose} ${preview.currency} requested (approval request ${id}): a second principal decides it in Approvals.`,
            );
            setPreview(null);
            setClose('');
            setReason('');
            onRequested();
          }}
        >
          <Field label="Reason" name="reason" value={reason} onChange={setReason} required placeholder="administrator's price file corrected" />
        </ActionForm>
      )}
      {notice && (
        <p className="notice" role="status">
          {notice} <Link to={['approvals']}>Approvals</Link>
        </p>
      )}
    </Panel>
  );
}

function CorrectionPreview({ preview: p }: { preview: Preview }) {
  return (
    <section aria-label="Correction preview">
      <Facts
        items={[
          ['NAV', `${p.entryId}, published ${time(p.publishedAt)}`],
          ['Close', `${p.close} → ${p.correctedClose} ${p.currency}`],
          ['Error', `${decimal(p.errorBps, 2)} bps against a tolerance of ${p.toleranceBps} bps`],
          [
            'Compensation',
            p.aboveTolerance
              ? 'Above the tolerance: approving books each difference below (mint, burn or cash).'
              : 'Within the tolerance: nothing is booked for settled orders (CSSF 24/856).',
          ],
        ]}
      />
      <div className="table-wrap short">
        <RecordTable
          label="Orders re-priced"
          what="orders to re-price"
          records={p.repricings}
          rowKey={(r) => r.orderId}
          empty="No unsettled order is priced at this NAV."
          columns={[
            { header: 'Order', cell: (r) => <Link to={['orders', r.orderId]}>{r.orderId}</Link> },
            { header: 'Type', cell: (r) => `${r.type} (${r.flow})` },
            { header: 'Status', cell: (r) => r.status },
            { header: 'NAV', cell: (r) => `${r.navBefore} → ${r.navAfter}`, num: true },
            { header: 'Tokens', cell: (r) => (r.tokensBefore == null ? '—' : `${decimal(r.tokensBefore)} → ${decimal(r.tokensAfter)}`), num: true },
            { header: 'Amount', cell: (r) => (r.amountBefore == null ? '—' : `${decimal(r.amountBefore)} → ${decimal(r.amountAfter)}`), num: true },
          ]}
        />
      </div>
      <div className="table-wrap short">
        <RecordTable
          label="Compensation of settled orders"
          what="compensations"
          records={p.compensations}
          rowKey={(c) => c.orderId}
          empty="No order settled at this NAV."
          columns={[
            { header: 'Order', cell: (c) => <Link to={['orders', c.orderId]}>{c.orderId}</Link> },
            { header: 'Investor', cell: (c) => <Link to={['investors', c.investorId]}>{c.investorId}</Link> },
            { header: 'Wallet', cell: (c) => (c.wallet ? <Mono>{c.wallet}</Mono> : '—') },
            { header: 'Tokens moved', cell: (c) => decimal(c.tokensMoved), num: true },
            { header: 'Tokens due', cell: (c) => decimal(c.tokensDue), num: true },
            { header: 'Difference', cell: (c) => decimal(c.tokensDifference), num: true },
            { header: 'Error (bps)', cell: (c) => decimal(c.errorBps, 2), num: true },
            {
              header: 'Booked on approval',
              cell: (c) =>
                c.action === null
                  ? 'nothing'
                  : c.action === 'cash'
                    ? `cash ${decimal(c.cashAmount)} ${c.currency}`
                    : `${c.action} ${decimal(c.tokensDifference.replace('-', ''))} tokens`,
            },
          ]}
        />
      </div>
    </section>
  );
}
