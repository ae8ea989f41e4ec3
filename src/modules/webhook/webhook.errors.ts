import { badRequest, conflict, notFound } from '../../common/errors';

/** `...` of the description rendered as every event type a webhook may register for (the four described ones first). */
export const eventTypeInvalid = (types: readonly string[]) => badRequest(`event_type must be one of ${types.join(', ')}`);
export const endpointNotHttps = () => badRequest('endpoint_url must be HTTPS');
export const endpointForbidden = () => badRequest('endpoint_url must resolve to a public address');
export const webhookNotFound = () => notFound('webhook_id not found');
export const eventTypeMismatch = () => badRequest("event_type must match the webhook's event_type");
export const webhookExists = (eventType: string) => conflict(`endpoint_url is already registered for ${eventType}`);
export const deliveryNotFound = () => notFound('delivery not found');
