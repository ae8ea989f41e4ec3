import { Fragment } from 'react';
import { request } from '../api/client';
import { RedeliverWebhookEventDocument, type DeliveryFragment } from '../generated/graphql';
import { time } from '../ui/format';
import { ConfirmAction } from '../ui/confirm-action';
import { Mono, Status, scrollable } from '../ui/parts';

/** Webhook deliveries with every attempt under each, and redelivery of an event to that webhook. */
export function DeliveryTable({ deliveries, onChange }: { deliveries: DeliveryFragment[]; onChange: () => void }) {
  if (!deliveries.length) return <p className="muted">No deliveries.</p>;
  return (
    <div className="table-wrap" {...scrollable('Delivery table')}>
      {/* Not a RecordTable: each delivery is followed by a row per attempt. */}
      <table className="grid" aria-label="Webhook deliveries">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Attempts
            </th>
            <th scope="col">Created</th>
            <th scope="col">Next / completed</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <Fragment key={d.id}>
              <tr data-event-id={d.eventId}>
                <td>
                  <Mono>{d.eventId}</Mono>
                  {d.test && <span className="tag">test</span>}
                  <div className="muted small">
                    to <Mono>{d.webhookId}</Mono>
                  </div>
                </td>
                <td>{d.eventType}</td>
                <td>
                  <Status value={d.status} />
                  {d.lastError && <div className="muted small">{d.lastError}</div>}
                </td>
                <td className="num">{d.attempts}</td>
                <td>{time(d.createdAt)}</td>
                <td>{d.completedAt ? time(d.completedAt) : time(d.nextAttemptAt)}</td>
                <td>
                  <ConfirmAction
                    operation="redeliverWebhookEvent"
                    quiet
                    label="Redeliver"
                    title={`Redeliver ${d.eventId}?`}
                    description={
                      <p>
                        The event is sent again to webhook <Mono>{d.webhookId}</Mono> from the start of the retry schedule, under the same{' '}
                        <Mono>webhook-id</Mono>.
                      </p>
                    }
                    run={() => request(RedeliverWebhookEventDocument, { eventId: d.eventId, webhookId: d.webhookId })}
                    onDone={onChange}
                  />
                </td>
              </tr>
              {d.deliveryAttempts.map((a) => (
                <tr key={a.id} className="attempt">
                  <td colSpan={7}>
                    Attempt {a.number} at {time(a.attemptedAt)}: {a.success ? 'delivered' : 'failed'}
                    {a.statusCode != null && ` · HTTP ${a.statusCode}`} · {a.latencyMs} ms{a.error && ` · ${a.error}`}
                  </td>
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
