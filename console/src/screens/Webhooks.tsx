import { useEffect, useState } from 'react';
import { request, subscribe } from '../api/client';
import {
  DeliveryOutcomesDocument,
  RecoverWebhookDeliveriesDocument,
  SetWebhookStatusDocument,
  WebhookDeliveriesDocument,
  WebhookListDocument,
  type WebhookDeliveryStatus,
  type WebhookListQuery,
} from '../generated/graphql';
import { count, time } from '../ui/format';
import { ConfirmAction } from '../ui/confirm-action';
import { Field, Select } from '../ui/fields';
import { ErrorNote, Loading, Mono, Page, Panel, RecordTable, Status } from '../ui/parts';
import { useQuery } from '../ui/use-query';
import { DeliveryTable } from './DeliveryTable';

/** Registrations, their deliveries and attempts (live), redelivery of an event, recovery of an endpoint's failures. */
export function Webhooks() {
  const hooks = useQuery(WebhookListDocument, {}, 'hooks');
  const [webhookId, setWebhookId] = useState('');
  const [status, setStatus] = useState('');
  const deliveries = useQuery(
    WebhookDeliveriesDocument,
    { webhookId: webhookId || null, status: (status || null) as WebhookDeliveryStatus | null, limit: 100 },
    `${webhookId}|${status}`,
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [since, setSince] = useState(() => new Date(Date.now() - 86_400_000).toISOString().slice(0, 16));
  const { reload } = deliveries;
  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | null = null;
    return subscribe(DeliveryOutcomesDocument, {}, () => {
      pending ??= setTimeout(() => {
        pending = null;
        void reload();
      }, 500);
    });
  }, [reload]);
  const list = hooks.data?.webhooks ?? [];
  return (
    <Page title="Webhooks">
      <Panel title="Registrations">
        <RecordTable
          label="Webhook registrations"
          what="webhooks"
          records={hooks.data?.webhooks}
          error={hooks.error}
          rowKey={(w) => w.id}
          empty="No webhook is registered."
          columns={[
            { header: 'Webhook', cell: (w) => w.id, className: 'mono' },
            { header: 'Distributor', cell: (w) => w.distributorId, className: 'mono' },
            { header: 'Event', cell: (w) => w.eventType },
            { header: 'Endpoint', cell: (w) => w.endpointUrl, className: 'mono wrap' },
            {
              header: 'Status',
              cell: (w) => (
                <>
                  <Status value={w.status} />
                  {w.disabledReason && <div className="muted small">{w.disabledReason}</div>}
                </>
              ),
            },
            { header: 'Registered', cell: (w) => time(w.createdAt) },
            {
              header: <span className="sr-only">Actions</span>,
              className: 'row-actions',
              cell: (w) => (
                <WebhookActions
                  webhook={w}
                  since={since}
                  setSince={setSince}
                  onShow={setWebhookId}
                  onRecovered={(n) => (setNotice(`${count(n, 'delivery', 'deliveries')} of ${w.id} back on the schedule.`), void reload())}
                  onChanged={() => void hooks.reload()}
                />
              ),
            },
          ]}
        />
      </Panel>
      <Panel title="Deliveries">
        <div className="filters">
          <Select
            label="Webhook"
            name="webhook"
            value={webhookId}
            onChange={setWebhookId}
            options={[['', 'All webhooks'], ...list.map((w): [string, string] => [w.id, `${w.id} · ${w.eventType}`])]}
          />
          <Select
            label="Status"
            name="deliveryStatus"
            value={status}
            onChange={setStatus}
            options={[
              ['', 'Any status'],
              ['pending', 'pending'],
              ['in_flight', 'in flight'],
              ['succeeded', 'succeeded'],
              ['dead', 'dead'],
            ]}
          />
        </div>
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <ErrorNote error={deliveries.error} />
        {deliveries.data ? (
          <DeliveryTable deliveries={deliveries.data.webhookDeliveries} onChange={() => void reload()} />
        ) : (
          !deliveries.error && <Loading what="deliveries" />
        )}
        <p className="muted small">
          Showing the latest 100. Filter by webhook <Mono>wh_…</Mono> or status to narrow.
        </p>
      </Panel>
    </Page>
  );
}

/** What ops may do to one registration: show its deliveries, recover its dead ones, enable or disable it. */
function WebhookActions(props: {
  webhook: WebhookListQuery['webhooks'][number];
  since: string;
  setSince: (v: string) => void;
  onShow: (id: string) => void;
  onRecovered: (count: number) => void;
  onChanged: () => void;
}) {
  const w = props.webhook;
  return (
    <>
      <button type="button" onClick={() => props.onShow(w.id)} aria-label={`Show deliveries of ${w.id}`}>
        Deliveries
      </button>
      <ConfirmAction
        operation="recoverWebhookDeliveries"
        quiet
        label="Recover"
        title={`Recover failed deliveries of ${w.id}?`}
        description={<p>Every dead delivery to {w.endpointUrl} created since the time below goes back on the schedule, from its first step.</p>}
        fields={(af) => <Field label="Since" name="since" type="datetime-local" value={props.since} onChange={props.setSince} required autoFocus={af} />}
        run={() => request(RecoverWebhookDeliveriesDocument, { webhookId: w.id, since: new Date(props.since).getTime() })}
        onDone={(r) => props.onRecovered((r as { recoverWebhookDeliveries: { count: number } }).recoverWebhookDeliveries.count)}
      />
      <ConfirmAction
        operation="setWebhookStatus"
        label={w.status === 'active' ? 'Disable' : 'Enable'}
        danger={w.status === 'active'}
        title={`${w.status === 'active' ? 'Disable' : 'Enable'} ${w.id}?`}
        description={<p>{w.status === 'active' ? 'No more deliveries are attempted until it is enabled again.' : 'Deliveries resume.'}</p>}
        run={() => request(SetWebhookStatusDocument, { webhookId: w.id, status: w.status === 'active' ? 'disabled' : 'active' })}
        onDone={props.onChanged}
      />
    </>
  );
}
