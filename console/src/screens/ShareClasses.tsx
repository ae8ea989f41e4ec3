import { useEffect, useState } from 'react';
import { request, subscribe } from '../api/client';
import { NavPublishedDocument, PublishNavDocument, ShareClassDetailDocument, ShareClassListDocument } from '../generated/graphql';
import { bps, count, day, decimal, isDecimal, money, time } from '../ui/format';
import { NavChart } from '../ui/NavChart';
import { ActionForm } from '../ui/action-form';
import { EntityList } from '../ui/EntityList';
import { Field } from '../ui/fields';
import { ErrorNote, Facts, Loading, Mono, Page, Panel, RecordTable, Status, scrollable } from '../ui/parts';
import { href, Link } from '../ui/router';
import { useChainLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';
import { instantIn, todayIn } from '../ui/zone';
import { DealingCalendarPanel } from './DealingCalendar';
import { DealingSettlementPanel } from './DealingSettlement';
import { NavCorrectionPanel } from './NavCorrection';
import { PositionsPanel } from './Positions';
import { IncomePolicyFact } from './IncomePolicy';
import { HoldingRequestsPanel } from './HoldingRequests';
import { ReconciliationPanel } from './Reconciliation';
import { RegisterAtDatePanel } from './RegisterAtDate';
import { TokensPanel } from './Tokens';
import { ShareClassChecklist } from './Onboarding';

export function ShareClassList() {
  return (
    <Page
      title="Share classes"
      actions={
        <>
          <Link to={['eligibility']}>Eligibility rule sets</Link>{' '}
          <a className="button primary" href={href('share-classes', 'new')}>
            New share class
          </a>
        </>
      }
    >
      <div className="table-wrap" {...scrollable('Share class table')}>
        <EntityList
          doc={ShareClassListDocument}
          page={(d) => d.shareClassPage}
          pageSize={200}
          label="Share classes"
          what="share classes"
          empty="No share classes yet."
          link={{ section: 'share-classes', header: 'Share class' }}
          columns={[
            { header: 'Name', cell: (s) => s.meta.name },
            { header: 'Manager', cell: (s) => s.meta.manager },
            { header: 'Status', cell: (s) => <Status value={s.status} /> },
            { header: 'Currency', cell: (s) => s.currency },
            { header: 'Provider', cell: (s) => s.provider },
            { header: 'Default chain', cell: (s) => s.defaultChainId ?? '—' },
            { header: 'Live NAV', cell: (s) => decimal(s.liveNav?.close), num: true },
            { header: 'Published', cell: (s) => time(s.liveNav?.publishedAt) },
          ]}
        />
      </div>
    </Page>
  );
}

/** Days of NAV history the chart shows. */
const HISTORY_DAYS = 365;

export function ShareClassDetail({ id }: { id: string }) {
  // Both bounds, so the range (not the default last 100) is read; the end lies ahead so that
  // a NAV published now, or struck for later today, is inside it.
  const now = Date.now();
  const q = useQuery(ShareClassDetailDocument, { id, shareClassId: id, startDate: now - HISTORY_DAYS * 86_400_000, endDate: now + 86_400_000 }, id);
  const { reload } = q;
  // The checklist is read again whenever this screen changes something it depends on.
  const [version, setVersion] = useState(0);
  const changed = () => (setVersion((v) => v + 1), void reload());
  // Its tokens' deployments and its orders' mints and burns, as they become final on chain.
  useChainLive(reload, (tx) => !tx.purpose.startsWith('wallet.'));
  useEffect(() => subscribe(NavPublishedDocument, { shareClassId: id }, () => (setVersion((v) => v + 1), void reload())), [id, reload]);
  if (!q.data) return <Page title={`Share class ${id}`}>{q.error ? <ErrorNote error={q.error} /> : <Loading what="the share class" />}</Page>;
  const s = q.data.shareClass;
  const history = q.data.navHistory;
  return (
    <Page
      title={
        <>
          {s.meta.name} <Mono>{s.id}</Mono>
        </>
      }
      actions={
        <>
          <a className="button" href={href('share-classes', s.id, 'edit')}>
            Edit share class
          </a>
          <Link to={['share-classes']}>← Share classes</Link>
        </>
      }
    >
      <ShareClassChecklist id={s.id} version={version} />
      <Panel title="NAV history">
        <NavChart points={history} currency={s.currency} />
        <PublishNav
          shareClassId={s.id}
          currency={s.currency}
          zone={s.dealingCalendar?.timeZone ?? 'UTC'}
          liveClose={s.liveNav?.close ?? null}
          toleranceBps={s.navToleranceBps}
          onDone={changed}
        />
      </Panel>
      <div className="columns">
        <Panel title="Share class">
          <Facts
            items={[
              ['Status', <Status value={s.status} />],
              ['Fund', `${s.fund.name} (${s.fundId})`],
              ['Issuer', `${s.fund.issuer.name} (${s.fund.issuer.id})`],
              ['Manager', s.meta.manager],
              ['Currency', s.currency],
              ['Provider', s.provider],
              ['Default chain', s.defaultChainId],
              ['Live NAV', s.liveNav ? `${s.liveNav.close} ${s.currency} (${time(s.liveNav.publishedAt)})` : 'none'],
              ['Created', `${time(s.createdAt)} by ${s.createdBy}`],
              ['Updated', `${time(s.updatedAt)} by ${s.updatedBy}`],
            ]}
          />
        </Panel>
        <Panel title="Fees">
          <Facts
            items={[
              ['Subscription', bps(s.feesSubBps)],
              ['Redemption', bps(s.feesRedBps)],
              ['Management', bps(s.feesMgmtBps)],
              ['Performance', bps(s.feesPerfBps)],
              ['High watermark', bps(s.feesWatermarkBps)],
            ]}
          />
        </Panel>
        <Panel title="Details and metrics">
          <Facts
            items={[
              ['ISIN', s.details.isin],
              ['Jurisdiction', s.details.jurisdiction],
              ['Minimum investment', `${s.details.minimumInvestment_fiat} ${s.currency}`],
              ['APY', bps(s.metrics.apy_bps)],
              ['TVL', money(s.metrics.tvl_fiat, s.metrics.currency)],
              ['7-day change', decimal(s.metrics.change7D)],
              ['Maturity', s.metrics.maturity_days === -1 ? 'open-ended' : count(s.metrics.maturity_days, 'day')],
              ['Asset class', s.overview.assetClass],
              ['Risk level', String(s.overview.riskLevel)],
              ['Description', s.overview.description],
            ]}
          />
        </Panel>
        <Panel title="Dealing and bank">
          <Facts
            items={[
              ['Subscription frequency', count(s.subRedemption.subFreq, 'business day')],
              ['Redemption frequency', count(s.subRedemption.redFreq, 'business day')],
              ['Cut-off day offset', `${count(s.subRedemption.cutOffTime_days, 'business day')} from the dealing date (time and zone: dealing calendar)`],
              ['Lock-up', count(s.subRedemption.lockup, 'day')],
              [
                'Eligible investors',
                <>
                  <Link to={['eligibility', s.subRedemption.eligibleInvestors]}>{s.subRedemption.eligibleInvestors}</Link> (its rule set)
                </>,
              ],
              ['Income policy', <IncomePolicyFact shareClassId={s.id} policy={q.data.distributionPolicy} key="income" />],
              ['Account holder', s.bank.accountHolderName],
              ['Account', `${s.bank.accountNumber} (${s.bank.accountType})`],
              ['Bank', `${s.bank.bankName}, ${s.bank.swiftCode}`],
              ['Bank currency', s.bank.currency],
            ]}
          />
        </Panel>
      </div>
      <DealingCalendarPanel shareClassId={s.id} onSaved={changed} />
      <TokensPanel shareClassId={s.id} tokens={s.tokens} onChange={changed} />
      <DealingSettlementPanel shareClassId={s.id} currency={s.currency} onSettled={changed} />
      <ReconciliationPanel shareClassId={s.id} />
      <NavCorrectionPanel navs={[...history].reverse().slice(0, 20)} onRequested={changed} />
      <PositionsPanel shareClassId={s.id} />
      <HoldingRequestsPanel shareClassId={s.id} chains={[...new Set(s.tokens.map((t) => t.chainId))]} timeZone={s.dealingCalendar?.timeZone ?? 'UTC'} />
      <RegisterAtDatePanel shareClassId={s.id} />
      <Panel title="Distributors granted">
        {s.grants.length ? (
          <ul className="plain">
            {s.grants.map((g) => (
              <li key={g.distributorId}>
                <Link to={['distributors', g.distributorId]}>{g.distributor.name}</Link> <Mono>{g.distributorId}</Mono> · {g.deliveryMode}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No distributor may sell it yet.</p>
        )}
      </Panel>
      <Panel title="Recent NAVs">
        <div className="table-wrap short" {...scrollable('Recent NAV table')}>
          <RecordTable
            label="Recent NAVs"
            what="NAVs"
            records={[...history].reverse().slice(0, 20)}
            rowKey={(n) => n.entryId}
            empty="No NAV published yet."
            columns={[
              { header: 'Published', cell: (n) => day(n.publishedAt) },
              {
                header: 'Close',
                cell: (n) => (n.originalClose ? `${n.close} (corrected from ${n.originalClose}: ${n.correctionReason ?? ''})` : n.close),
                num: true,
              },
              { header: 'Open / high / low', cell: (n) => `${n.open} / ${n.high} / ${n.low}`, num: true },
              { header: 'Struck by', cell: (n) => n.struckBy, className: 'mono' },
              { header: 'Confirmed by', cell: (n) => n.confirmedBy ?? '—', className: 'mono' },
            ]}
          />
        </div>
      </Panel>
    </Page>
  );
}

/** The move of `close` against the last confirmed NAV, in percent (null when either is not a number or the last is 0). */
function moveOf(close: string, last: string | null): number | null {
  if (!last || !isDecimal(close) || Number(last) === 0) return null;
  return (Number(close) / Number(last) - 1) * 100;
}

/**
 * Publishing a NAV: the form shows its move against the last confirmed NAV; outside the class's
 * tolerance it asks the publisher to confirm, and says the NAV waits for a second principal in
 * Approvals (the gateway decides, whatever the page computed). The valuation date and time are
 * read on the wall clock of the class's dealing zone, where its dealing dates are counted (a
 * dealing date's NAV is the last one struck on that date there): never in the browser's zone.
 */
function PublishNav({
  shareClassId,
  currency,
  zone,
  liveClose,
  toleranceBps,
  onDone,
}: {
  shareClassId: string;
  currency: string;
  zone: string;
  liveClose: string | null;
  toleranceBps: number;
  onDone: () => void;
}) {
  const [close, setClose] = useState('');
  const [jumpConfirmed, setJumpConfirmed] = useState(false);
  const [open, setOpen] = useState('');
  const [high, setHigh] = useState('');
  const [low, setLow] = useState('');
  const [valuationDate, setValuationDate] = useState('');
  const [valuationTime, setValuationTime] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <ActionForm
        operation="publishNav"
        label="Publish NAV"
        className="inline"
        submit={async () => {
          setNotice(null);
          if (!isDecimal(close)) throw new Error('close must be a decimal number, e.g. 1.0234');
          for (const [name, v] of [
            ['open', open],
            ['high', high],
            ['low', low],
          ] as const)
            if (v && !isDecimal(v)) throw new Error(`${name} must be a decimal number`);
          const move = moveOf(close, liveClose);
          if (move !== null && Math.abs(move) * 100 > toleranceBps && !jumpConfirmed)
            throw new Error(
              `The NAV moves ${move.toFixed(2)}% against the last confirmed ${liveClose}, outside the tolerance of ${toleranceBps / 100}%: confirm it to send it to a second principal`,
            );
          const publishedAt = struckAt(valuationDate, valuationTime, zone);
          return request(PublishNavDocument, {
            input: { shareClassId, close: close.trim(), open: open || null, high: high || null, low: low || null, publishedAt },
          });
        }}
        onDone={(r) => {
          const nav = (r as { publishNav: { close: string; status: string; approvalRequestId: string | null } }).publishNav;
          setNotice(
            nav.status === 'pending'
              ? `NAV ${nav.close} ${currency} awaits a second principal (approval request ${nav.approvalRequestId}): it is not live until confirmed in Approvals.`
              : `NAV ${nav.close} ${currency} published.`,
          );
          setJumpConfirmed(false);
          setClose('');
          setOpen('');
          setHigh('');
          setLow('');
          setValuationDate('');
          setValuationTime('');
          onDone();
        }}
      >
        <Field
          label={`Close (${currency})`}
          name="close"
          value={close}
          onChange={(v) => (setClose(v), setJumpConfirmed(false))}
          required
          placeholder="1.0234"
          hint={moveText(close, liveClose, toleranceBps)}
        />
        {outsideTolerance(close, liveClose, toleranceBps) && (
          <label className="check">
            <input type="checkbox" name="jumpConfirmed" checked={jumpConfirmed} onChange={(e) => setJumpConfirmed(e.target.checked)} /> Outside the tolerance:
            send it to a second principal
          </label>
        )}
        <Field label="Open" name="open" value={open} onChange={setOpen} placeholder="= close" />
        <Field label="High" name="high" value={high} onChange={setHigh} placeholder="= close" />
        <Field label="Low" name="low" value={low} onChange={setLow} placeholder="= close" />
        <Field
          label={`Valuation date (${zone})`}
          name="valuationDate"
          type="date"
          value={valuationDate}
          onChange={setValuationDate}
          hint={`Empty: today in ${zone}, struck now`}
        />
        <Field
          label={`Time struck (${zone})`}
          name="valuationTime"
          type="time"
          value={valuationTime}
          onChange={setValuationTime}
          hint="Empty: now today, the date's start on an earlier date"
        />
      </ActionForm>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
    </>
  );
}

/**
 * The instant a NAV is struck at, from a valuation date and time on the zone's wall clock: null
 * (the gateway's now) for today without a time; an earlier date without a time is struck at its
 * start, the valuation point of a dealing date. A date ahead is sent as typed: the gateway refuses it.
 */
function struckAt(date: string, time: string, zone: string): number | null {
  if (!date && !time) return null;
  const day = date || todayIn(zone);
  if (!time && day === todayIn(zone)) return null;
  const at = instantIn(day, time || '00:00', zone);
  if (at === null) throw new Error('the valuation date must be a date and the time a time HH:MM');
  return at;
}

function outsideTolerance(close: string, liveClose: string | null, toleranceBps: number): boolean {
  const move = moveOf(close, liveClose);
  return move !== null && Math.abs(move) * 100 > toleranceBps;
}

function moveText(close: string, liveClose: string | null, toleranceBps: number): string {
  if (!liveClose) return 'The first NAV of the class: live at once';
  const move = moveOf(close, liveClose);
  const tolerance = `tolerance ${toleranceBps / 100}%`;
  if (move === null) return `Last confirmed: ${liveClose} (${tolerance})`;
  return `${move > 0 ? '+' : ''}${move.toFixed(2)}% against the last confirmed ${liveClose} (${tolerance})`;
}
