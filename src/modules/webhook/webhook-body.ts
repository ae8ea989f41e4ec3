/*
 * The event types a webhook may register for are no list of this module's: each emitting module
 * declares its family in its manifest (src/access/webhook-event-family.ts), and the composition
 * root hands their fold (WebhookEvents) to the fan-out and the service. What stays here is the body.
 */

/** The exact bytes sent: `{"event_type":…,"data":{…}}`. */
export function webhookBody(eventType: string, data: object): string {
  return JSON.stringify({ event_type: eventType, data });
}
