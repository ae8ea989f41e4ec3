import { useEffect, useState } from 'react';
import { request, subscribe } from '../api/client';
import { DeliveryOutcomesDocument, RecoverWebhookDeliveriesDocument, SetWebhookStatusDocument, WebhookDeliveriesDocument, WebhookListDocument, type WebhookDeliveryStatus } from '../generated/graphql';
import { time } from '../ui/format';
import { ConfirmAction, ErrorNote, Field, Loading, Mono, Page, Panel, Select, Status } from '../ui/parts';
import { useQuery } from '../ui/use-query';
import { DeliveryTable } from './DeliveryTable';

/** Registrations, their deliveries and attempts (live), redelivery of an event, recovery of an endpoint's failures. */
export function Webhooks() {
  const hooks = useQuery(WebhookListDocument, {}, 'hooks');
  const [webhookId, setWebhookId] = useState('');
  const [status, setStatus] = useState('');
  const deliveries = useQuery(WebhookDeliveriesDocument, { webhookId: webhookId || null, status: (status || null) as WebhookDeliveryStatus | null, limit: 100 }, `${webhookId}|${status}`);
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
        <ErrorNote error={hooks.error} />
        {!hooks.data ? (
          !hooks.error && <Loading what="webhooks" />
        ) : (
          <table className="grid" aria-label="Webhook registrations">
            <thead>
              <tr>
                <th scope="col">Webhook</th>
                <th scope="col">Distributor</th>
                <th scope="col">Event</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Registered</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((w) => (
                <tr key={w.id}>
                  <td className="mono">{w.id}</td>
                  <td className="mono">{w.distributorId}</td>
                  <td>{w.eventType}</td>
                  <td className="mono wrap">{w.endpointUrl}</td>
                  <td>
                    <Status value={w.status} />
                    {w.disabledReason && <div className="muted small">{w.disabledReason}</div>}
                  </td>
                  <td>{time(w.createdAt)}</td>
                  <td className="row-actions">
                    <button type="button" onClick={() => setWebhookId(w.id)} aria-label={`Show deliveries of ${w.id}`}>
                      Deliveries
                    </button>
                    <ConfirmAction
                      quiet
                      label="Recover"
                      title={`Recover failed deliveries of ${w.id}?`}
                      description={<p>Every dead delivery to {w.endpointUrl} created since the time below goes back on the schedule, from its first step.</p>}
                      fields={(af) => <Field label="Since" name="since" type="datetime-local" value={since} onChange={setSince} required autoFocus={af} />}
                      run={() => request(RecoverWebhookDeliveriesDocument, { webhookId: w.id, since: new Date(since).getTime() })}
                      onDone={(r) => {
                        setNotice(`${(r as { recoverWebhookDeliveries: { count: number } }).recoverWebhookDeliveries.count} deliveries of ${w.id} back on the schedule.`);
                        void reload();
                      }}
                    />
                    <ConfirmAction
                      label={w.status === 'active' ? 'Disable' : 'Enable'}
                      danger={w.status === 'active'}
                      title={`${w.status === 'active' ? 'Disable' : 'Enable'} ${w.id}?`}
                      description={<p>{w.status === 'active' ? 'No more deliveries are attempted until it is enabled again.' : 'Deliveries resume.'}</p>}
                      run={() => request(SetWebhookStatusDocument, { webhookId: w.id, status: w.status === 'active' ? 'disabled' : 'active' })}
                      onDone={() => void hooks.reload()}
                    />
                  </td>
                </tr>
              ))}
              {!list.length && (
                <tr>
                  <td colSpan={7} className="muted">
                    No webhook is registered.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </Panel>
      <Panel title="Deliveries">
        <div className="filters">
          <Select label="Webhook" name="webhook" value={webhookId} onChange={setWebhookId} options={[['', 'All webhooks'], ...list.map((w): [string, string] => [w.id, `${w.id} · ${w.eventType}`])]} />
          <Select label="Status" name="deliveryStatus" value={status} onChange={setStatus} options={[['', 'Any status'], ['pending', 'pending'], ['in_flight', 'in flight'], ['succeeded', 'succeeded'], ['dead', 'dead']]} />
        </div>
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <ErrorNote error={deliveries.error} />
        {deliveries.data ? <DeliveryTable deliveries={deliveries.data.webhookDeliveries} onChange={() => void reload()} /> : !deliveries.error && <Loading what="deliveries" />}
        <p className="muted small">
          Showing the latest 100. Filter by webhook <Mono>wh_…</Mono> or status to narrow.
        </p>
      </Panel>
    </Page>
  );
}
