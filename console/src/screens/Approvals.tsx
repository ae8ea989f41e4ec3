import { useState } from 'react';
import { request } from '../api/client';
import { ApprovalRequestsDocument, ApproveRequestDocument, AuditLogDocument, RejectRequestDocument, type ApprovalRequestsQuery } from '../generated/graphql';
import { count, time } from '../ui/format';
import { ConfirmAction } from '../ui/confirm-action';
import { Field } from '../ui/fields';
import { may, useMe } from '../ui/me';
import { Page, Panel, RecordTable, Status } from '../ui/parts';
import { useApprovalsLive } from '../ui/use-chain-live';
import { useQuery } from '../ui/use-query';

type Request = ApprovalRequestsQuery['approvalRequests'][number];

export const KIND: Record<string, string> = {
  wallet_recovery: 'Wallet recovery',
  holding_adjustment: 'Holding adjustment',
  forced_transfer: 'Forced transfer',
  nav_confirmation: 'NAV confirmation',
  nav_correction: 'NAV correction',
  ops_principal: 'New ops principal',
  ops_roles: 'Ops roles',
  ops_token_reset: 'Ops token reset',
  eligibility_rules: 'Eligibility rules',
  investor_category: 'Investor category upgrade',
  wallet_unfreeze: 'Wallet unfreeze',
};

/**
 * What a request will do, in a line: the effect it bound when it was requested (token, wallets,
 * quantities), which is exactly what approving it runs — the gateway refuses the approval if the
 * world no longer gives it (docs/approvals.md#a-request-binds-its-effect).
 */
function what(r: Request): string {
  const e = r.effect;
  if (e?.forcedTransfer) {
    const t = e.forcedTransfer;
    return `${count(t.quantity, 'token')} of ${t.shareClassId} (${t.tokenAddress} on chain ${t.chainId}) from ${t.fromInvestorId} ${t.fromWallet} to ${t.toInvestorId} ${t.toWallet}`;
  }
  if (e?.walletRecovery) {
    const w = e.walletRecovery;
    const tokens = w.tokens.map((t) => `${count(t.quantity, 'token')} of ${t.shareClassId} (${t.tokenAddress})`).join(', ');
    return `${w.investorId} on chain ${w.chainId}: ${tokens} from lost wallet ${w.lostWallet} to ${w.newWallet}`;
  }
  if (e?.holdingAdjustment) {
    const h = e.holdingAdjustment;
    return `${h.investorId} in ${h.shareClassId}: ${h.balanceBefore} → ${h.balanceAfter} (${Number(h.quantity) > 0 ? '+' : ''}${h.quantity}; the register only)`;
  }
  if (e?.walletUnfreeze) {
    const u = e.walletUnfreeze;
    return `${u.investorId}'s wallet ${u.wallet} unfrozen on ${u.shareClassId} (${u.tokenAddress} on chain ${u.chainId})`;
  }
  if (r.kind === 'nav_confirmation') {
    // A NAV's confirmation binds its arguments as struck (the NAV and the move it was held for).
    const a = r.arguments as Record<string, string>;
    const move = a.movePercent === null ? 'a move from 0' : `${Number(a.movePercent) > 0 ? '+' : ''}${a.movePercent}%`;
    return `NAV ${a.close} ${a.currency} of ${a.shareClassId} at ${time(Number(a.publishedAt))}: ${move} against ${a.previousClose} (tolerance ${Number(a.toleranceBps) / 100}%)`;
  }
  if (r.kind === 'nav_correction') {
    // The plan it binds (what it re-prices and books) is the gateway's; the preview showed it to the requester.
    const a = r.arguments as Record<string, string>;
    return `NAV ${a.navId} corrected to ${a.close}: re-prices the orders priced at it and, above the tolerance, compensates those settled at it`;
  }
  if (r.kind === 'ops_principal' || r.kind === 'ops_roles' || r.kind === 'ops_token_reset') {
    const a = r.arguments as Record<string, string>;
    return r.kind === 'ops_token_reset' ? `a new token for ${a.name}` : `${a.name} as ${(r.arguments.roles as string[]).join(', ')}`;
  }
  if (r.kind === 'eligibility_rules') {
    // The rules as asked; the holders they leave ineligible are in the request's effect (docs/compliance.md).
    const a = r.arguments as Record<string, string | number | string[] | null>;
    const list = (v: string | number | string[] | null, none: string) => (Array.isArray(v) ? v.join(', ') || none : none);
    return `rule set ${String(a.code)}: countries ${list(a.allowedCountries, 'any')}, blocked ${list(a.blockedCountries, 'none')}, categories ${list(a.allowedCategories, 'any')}, holders ≤ ${String(a.maxHolders ?? '∞')}, holding ≤ ${String(a.maxHoldingPerInvestor ?? '∞')}, supply ≤ ${String(a.supplyCap ?? '∞')}`;
  }
  if (r.kind === 'investor_category') {
    const a = r.arguments as Record<string, string>;
    return `${a.investorId} to ${a.to}`;
  }
  return 'Made before requests bound their effect: reject it and request it again.';
}

/**
 * The approvals inbox: requests awaiting a second person (who asked for what, and why), and the
 * latest decisions. A principal sees no Approve or Reject on its own request, nor without the
 * approver role.
 */
export function Approvals() {
  const me = useMe();
  const inbox = useQuery(ApprovalRequestsDocument, { status: 'requested' as const }, 'inbox');
  const all = useQuery(ApprovalRequestsDocument, { status: null }, 'all');
  const [notice, setNotice] = useState<string | null>(null);
  const reload = () => void Promise.all([inbox.reload(), all.reload()]);
  // Another principal's request or decision shows at once, without a reload.
  useApprovalsLive(reload);
  return (
    <Page title="Approvals">
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <Panel title="Awaiting a decision">
        <RecordTable
          label="Requests awaiting a decision"
          what="requests"
          records={inbox.data?.approvalRequests}
          error={inbox.error}
          rowKey={(r) => r.id}
          empty="Nothing awaits a decision."
          columns={[
            { header: 'Request', cell: (r) => r.id, className: 'mono' },
            { header: 'Kind', cell: (r) => KIND[r.kind] ?? r.kind },
            { header: 'What', cell: (r) => what(r), className: 'mono wrap' },
            { header: 'Why', cell: (r) => r.reason },
            { header: 'Requested by', cell: (r) => `${r.requestedBy} · ${time(r.requestedAt)}`, className: 'mono' },
            {
              header: <span className="sr-only">Actions</span>,
              className: 'row-actions',
              cell: (r) => (
                <Decide request={r} mine={r.requestedBy === me.principal} approver={may(me, 'approveRequest')} onDone={(m) => (setNotice(m), reload())} />
              ),
            },
          ]}
        />
      </Panel>
      <Panel title="Latest requests">
        <RecordTable
          label="Latest requests"
          what="requests"
          records={all.data?.approvalRequests}
          error={all.error}
          rowKey={(r) => r.id}
          empty="No request yet."
          columns={[
            { header: 'Request', cell: (r) => r.id, className: 'mono' },
            { header: 'Kind', cell: (r) => KIND[r.kind] ?? r.kind },
            { header: 'What', cell: (r) => what(r), className: 'mono wrap' },
            {
              header: 'Status',
              cell: (r) => (
                <>
                  <Status value={r.status} />
                  {r.failure && <div className="muted small">{r.failure}</div>}
                </>
              ),
            },
            { header: 'Requested by', cell: (r) => r.requestedBy, className: 'mono' },
            { header: 'Decided by', cell: (r) => (r.decidedBy ? `${r.decidedBy}${r.decisionReason ? ` (${r.decisionReason})` : ''}` : '—'), className: 'mono' },
            { header: 'Runs at', cell: (r) => (r.executeAfter && r.status === 'approved' ? time(r.executeAfter) : '—') },
          ]}
        />
      </Panel>
    </Page>
  );
}

function Decide({ request: r, mine, approver, onDone }: { request: Request; mine: boolean; approver: boolean; onDone: (message: string) => void }) {
  const [reason, setReason] = useState('');
  if (mine) return <span className="muted small">Your request: another person decides.</span>;
  if (!approver) return <span className="muted small">Awaiting an approver.</span>;
  return (
    <>
      <ConfirmAction
        operation="approveRequest"
        label="Approve"
        title={`Approve request ${r.id}`}
        description={`${KIND[r.kind] ?? r.kind}: ${what(r)}. Requested by ${r.requestedBy}: ${r.reason}. It runs once you approve (a recovery after its delay; a NAV is live then, with its own publication time).`}
        fields={(autoFocus) => (
          <Field label="Reason" name="reason" value={reason} onChange={setReason} autoFocus={autoFocus} placeholder="checked with the investor" />
        )}
        run={() => request(ApproveRequestDocument, { id: r.id, reason: reason || null })}
        onDone={(res) => onDone(`Request ${r.id} ${(res as { approveRequest: { status: string } }).approveRequest.status}.`)}
      />
      <ConfirmAction
        operation="rejectRequest"
        label="Reject"
        danger
        title={`Reject request ${r.id}`}
        description={`${KIND[r.kind] ?? r.kind}: ${what(r)}. Nothing runs.`}
        fields={(autoFocus) => <Field label="Reason" name="reason" value={reason} onChange={setReason} required autoFocus={autoFocus} />}
        run={() => request(RejectRequestDocument, { id: r.id, reason })}
        onDone={() => onDone(`Request ${r.id} rejected.`)}
      />
    </>
  );
}

/** The append-only audit log of ops mutations (approvers and admins). */
export function AuditLog() {
  const [operation, setOperation] = useState('');
  const log = useQuery(AuditLogDocument, { operation: operation || null }, operation);
  return (
    <Page title="Audit log">
      <Panel title="Ops mutations, newest first">
        <div className="filters">
          <Field label="Operation" name="operation" value={operation} onChange={setOperation} placeholder="requestWalletRecovery" />
        </div>
        <RecordTable
          label="Audit log"
          what="entries"
          records={log.data?.auditLog}
          error={log.error}
          rowKey={(e) => e.id}
          empty="No entry."
          columns={[
            { header: 'At', cell: (e) => time(e.at) },
            { header: 'Principal', cell: (e) => e.principal, className: 'mono' },
            { header: 'x-actor', cell: (e) => e.actorNote ?? '—', className: 'mono' },
            { header: 'Operation', cell: (e) => e.operation, className: 'mono' },
            { header: 'Arguments', cell: (e) => JSON.stringify(e.arguments), className: 'mono wrap small' },
            // `pending`: still running, or the gateway stopped before it answered (docs/approvals.md).
            { header: 'Outcome', cell: (e) => (e.outcome === 'error' ? `error ${e.errorCode ?? ''}` : e.outcome) },
          ]}
        />
      </Panel>
    </Page>
  );
}
