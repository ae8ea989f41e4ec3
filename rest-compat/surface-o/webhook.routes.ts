import { registerWebhookRoute, testWebhookRoute } from '../surface-r/webhook.routes';

/** Surface O: `POST /webhooks/register` and `POST /webhooks/test` for the distributor of the Bearer token. */
export const webhookRoutesO = [registerWebhookRoute('bearer'), testWebhookRoute('bearer')];
