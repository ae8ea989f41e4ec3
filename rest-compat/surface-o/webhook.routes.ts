import { registerWebhookRoute } from '../surface-r/webhook.routes';

/** Surface O: `POST /webhooks/register` for the distributor of the Bearer token. */
export const webhookRoutesO = [registerWebhookRoute('bearer')];
