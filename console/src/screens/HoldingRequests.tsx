import { useState } from 'react';
import { request } from '../api/client';
import { ChainsDocument, PositionsDocument, RequestForcedTransferDocument, RequestHoldingAdjustmentDocument } from '../generated/graphql';
import { ActionForm } from '../ui/action-form';
import { Field, Select } from '../ui/fields';
import { decimal } from '../ui/format';
import { may, useMe } from '../ui/me';
import { Panel } from '../ui/parts';
import { Link } from '../ui/router';
import { instantIn } from '../ui/zone';
import { useQuery } from '../ui/use-query';

/** What a request's answer says: it runs only once a second principal approves it. */
function Requested({ id, what }: { id: string; what: string }) {
  return (
    <p role="status">
      {what} request {id} waits in <Link to={['approvals']}>Approvals</Link> for a second principal; nothing moves until it is approved.
    </p>
  );
}

/**
 * The register's two four-eyes corrections of a share class (docs/approvals.md): a holding
 * adjustment (tokens booked in from a previous register, or taken out) and a forced transfer
 * between two holders on chain. Each is a request an operator makes and another principal
 * approves on Approvals; the forms show only to a principal whose roles allow the request.
 */
export function HoldingRequestsPanel({ shareClassId, chains, timeZone }: { shareClassId: string; chains: string[]; timeZone: string }) {
  const me = useMe();
  const adjust = may(me, 'requestHoldingAdjustment');
  const force = may(me, 'requestForcedTransfer');
  if (!adjust && !force) return null;
  return (
    <Panel title="Register corrections">
      {adjust && <Adjustment shareClassId={shareClassId} timeZone={timeZone} />}
      {force && <ForcedTransfer shareClassId={shareClassId} chains={chains} />}
    </Panel>
  );
}

function Adjustment({ shareClassId, timeZone }: { shareClassId: string; timeZone: string }) {
  const [f, setF] = useState({ investorId: '', quantity: '', settledOn: '', reason: '' });
  const [done, setDone] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (v: string) => setF({ ...f, [k]: v });
  return (
    <>
      <h3>Holding adjustment</h3>
      <ActionForm
        label="Request adjustment"
        operation="requestHoldingAdjustment"
        input="HoldingAdjustmentInput"
        submit={async () => {
          setDone(null);
          const settledAt = f.settledOn ? instantIn(f.settledOn, '00:00', timeZone) : null;
          const r = await request(RequestHoldingAdjustmentDocument, {
            input: { shareClassId, investorId: f.investorId.trim(), quantity: f.quantity.trim(), reason: f.reason, settledAt },
          });
          setDone(r.requestHoldingAdjustment.id);
          setF({ investorId: '', quantity: '', settledOn: '', reason: '' });
        }}
      >
        <Field label="Investor" name="investorId" value={f.investorId} onChange={set('investorId')} placeholder="IN000001" />
        <Field label="Tokens" name="quantity" value={f.quantity} onChange={set('quantity')} hint="positive books them in, negative takes them out" />
        <Field
          label={`Settled on (${timeZone})`}
          name="settledAt"
          type="date"
          value={f.settledOn}
          onChange={set('settledOn')}
          hint="empty: now; lock-up counts from it"
        />
        <Field label="Reason" name="reason" value={f.reason} onChange={set('reason')} placeholder="transfer in from the previous register" />
      </ActionForm>
      {done && <Requested id={done} what="Adjustment" />}
    </>
  );
}

function ForcedTransfer({ shareClassId, chains: tokenChains }: { shareClassId: string; chains: string[] }) {
  const positions = useQuery(PositionsDocument, { shareClassId }, shareClassId);
  // The transfer is the gateway's agent call: only a token chain it writes to can carry it.
  const configured = useQuery(ChainsDocument, {}, 'chains');
  const chains = tokenChains.filter((c) => configured.data?.chains.some((k) => k.chainId === c && k.writable));
  const holders = positions.data?.positions.holders ?? [];
  const [f, setF] = useState({ fromInvestorId: '', toInvestorId: '', chainId: '', quantity: '', reason: '' });
  const [done, setDone] = useState<string | null>(null);
  const set = (k: keyof typeof f) => (v: string) => setF({ ...f, [k]: v });
  const from: [string, string][] = [
    ['', 'Choose a holder'],
    ...holders.map((h): [string, string] => [h.investorId, `${h.investorName ?? h.investorId} (${h.investorId}): ${decimal(h.tokens)} tokens`]),
  ];
  return (
    <>
      <h3>Forced transfer</h3>
      {!configured.data ? null : !chains.length ? (
        <p className="muted">
          {tokenChains.length
            ? `The gateway writes to none of this class's token chains (${tokenChains.join(', ')}): a forced transfer is the gateway's call on chain.`
            : 'The share class has no token: a forced transfer moves tokens on chain.'}
        </p>
      ) : (
        <ActionForm
          label="Request forced transfer"
          operation="requestForcedTransfer"
          input="ForcedTransferInput"
          submit={async () => {
            setDone(null);
            const r = await request(RequestForcedTransferDocument, {
              input: { shareClassId, ...f, chainId: f.chainId || chains[0], toInvestorId: f.toInvestorId.trim(), quantity: f.quantity.trim() },
            });
            setDone(r.requestForcedTransfer.id);
            setF({ ...f, fromInvestorId: '', toInvestorId: '', quantity: '', reason: '' });
          }}
        >
          <Select label="From holder" name="fromInvestorId" options={from} value={f.fromInvestorId} onChange={set('fromInvestorId')} />
          <Field
            label="To investor"
            name="toInvestorId"
            value={f.toInvestorId}
            onChange={set('toInvestorId')}
            placeholder="IN000002"
            hint="with a whitelisted wallet on the chain"
          />
          <Select label="Chain" name="chainId" options={chains.map((c): [string, string] => [c, c])} value={f.chainId || chains[0]} onChange={set('chainId')} />
          <Field label="Tokens" name="quantity" value={f.quantity} onChange={set('quantity')} />
          <Field label="Reason" name="reason" value={f.reason} onChange={set('reason')} placeholder="court order 2026/114" />
        </ActionForm>
      )}
      {done && <Requested id={done} what="Forced transfer" />}
    </>
  );
}
