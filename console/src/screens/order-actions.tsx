import { useState } from 'react';
import { request } from '../api/client';
import {
  AcceptOrderDocument,
  FailOrderDocument,
  RecordSupplyOutcomeDocument,
  RejectOrderDocument,
  SettleOrderDocument,
  type OrderAction,
  type OrderFullFragment,
  type SupplyOutcome,
} from '../generated/graphql';
import { count, money } from '../ui/format';
import { ConfirmAction } from '../ui/confirm-action';
import { Field } from '../ui/fields';
import { Mono } from '../ui/parts';

/** A two-step order's ops actions are supply-side outcomes recorded for the platform: the outcome each records. */
const OUTCOME_OF: Partial<Record<OrderAction, SupplyOutcome>> = { accept: 'accepted', reject: 'rejected', settle: 'settled', fail: 'failed' };

/**
 * The actions the gateway says the order allows (`Order.allowedActions`, from its transition
 * table), each confirmed in a dialog: one-step accept, reject, settle, fail; two-step, what the
 * supply-side platform reported. Actions the console has no form for (push, cancel: the
 * distributor's) are not offered. A refused action still shows its message in the dialog.
 */
export function OrderActions({ order, onDone }: { order: OrderFullFragment; onDone: () => void }) {
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [hash, setHash] = useState('');
  const id = order.id;
  const what = (
    <p>
      {order.type === 'subscription' ? 'Subscription' : 'Redemption'} <Mono>{id}</Mono> of{' '}
      {order.type === 'subscription' ? money(order.amount, order.currency) : count(order.tokenCount ?? '', 'token')} by{' '}
      {order.investor.email ?? order.investor.name ?? <Mono>{order.investorId}</Mono>} through {order.distributor.name}.
    </p>
  );
  const done = () => {
    setNote('');
    setReason('');
    setHash('');
    onDone();
  };
  const reasonField = (label: string, required: boolean) => (autoFocus: boolean) => (
    <Field label={label} value={reason} onChange={setReason} required={required} autoFocus={autoFocus} name="reason" />
  );
  const hashField = (required: boolean) => (autoFocus: boolean) => (
    <Field label="Transfer hash" value={hash} onChange={setHash} required={required} autoFocus={autoFocus} name="transferHash" placeholder="0x…" />
  );

  const allowed = new Set(order.allowedActions);
  if (order.flow === 'one_step') {
    if (['accept', 'reject', 'settle', 'fail'].some((a) => allowed.has(a as OrderAction)))
      return (
        <div className="actions">
          {allowed.has('accept') && (
            <ConfirmAction
              operation="acceptOneStepOrder"
              label="Accept"
              title={`Accept ${id}?`}
              description={
                <>
                  {what}
                  <p>
                    It is priced at the share class's live NAV now, and the distributor is sent <Mono>order.accepted</Mono>.
                  </p>
                </>
              }
              fields={(af) => <Field label="Note (optional)" value={note} onChange={setNote} autoFocus={af} name="note" />}
              run={() => request(AcceptOrderDocument, { orderId: id, note: note || null })}
              onDone={done}
            />
          )}
          {allowed.has('reject') && (
            <ConfirmAction
              operation="rejectOneStepOrder"
              label="Reject"
              danger
              title={`Reject ${id}?`}
              description={
                <>
                  {what}
                  <p>
                    The distributor is sent <Mono>order.rejected</Mono> with this reason.
                  </p>
                </>
              }
              fields={reasonField('Reason', true)}
              run={() => request(RejectOrderDocument, { orderId: id, reason })}
              onDone={done}
            />
          )}
          {allowed.has('settle') && (
            <ConfirmAction
              operation="settleOneStepOrder"
              label="Settle"
              title={`Settle ${id}?`}
              description={
                <>
                  {what}
                  <p>
                    Without a hash, the gateway mints (subscription) or burns (redemption) the tokens on chain; the order settles at the chain's confirmation
                    depth and the distributor is sent <Mono>token.transfer_completed</Mono>, or <Mono>token.transfer_failed</Mono> with the contract's reason.
                    With the hash of a transfer made elsewhere, it is checked on chain and the order settles now.
                  </p>
                </>
              }
              fields={hashField(false)}
              run={() => request(SettleOrderDocument, { orderId: id, transferHash: hash || null })}
              onDone={done}
            />
          )}
          {allowed.has('fail') && (
            <ConfirmAction
              operation="failOneStepOrder"
              label="Fail"
              danger
              title={`Fail ${id}?`}
              description={
                <>
                  {what}
                  <p>
                    The token transfer failed: holdings stay as they are and the distributor is sent <Mono>token.transfer_failed</Mono>.
                  </p>
                </>
              }
              fields={(af) => (
                <>
                  {reasonField('Reason', true)(af)}
                  {hashField(false)(false)}
                </>
              )}
              run={() => request(FailOrderDocument, { orderId: id, reason, transferHash: hash || null })}
              onDone={done}
            />
          )}
        </div>
      );
    return <p className="muted">No action: a one-step order in status “{order.status}” is final or waits for the distributor.</p>;
  }

  const outcomes = order.allowedActions.flatMap((a) => (OUTCOME_OF[a] ? [OUTCOME_OF[a]] : []));
  if (!outcomes.length)
    return <p className="muted">No ops action: a two-step order in status “{order.status}” moves by push, cancel or the supply-side platform.</p>;
  return (
    <div className="actions">
      {outcomes.map((outcome) => (
        <ConfirmAction
          operation="recordSupplyOutcome"
          key={outcome}
          label={`Record ${outcome}`}
          danger={outcome === 'rejected' || outcome === 'failed'}
          title={`Record “${outcome}” for ${id}?`}
          description={
            <>
              {what}
              <p>As if the supply-side platform had reported it.</p>
            </>
          }
          fields={(af) => (
            <>
              <Field label="Note (optional)" value={note} onChange={setNote} autoFocus={af} name="note" />
              {(outcome === 'rejected' || outcome === 'failed') && reasonField('Reason', true)(false)}
              {(outcome === 'settled' || outcome === 'failed') && hashField(outcome === 'settled')(false)}
            </>
          )}
          run={() =>
            request(RecordSupplyOutcomeDocument, { input: { orderId: id, outcome, note: note || null, reason: reason || null, transferHash: hash || null } })
          }
          onDone={done}
        />
      ))}
    </div>
  );
}
