import { WebhookAttemptResolver, WebhookDeliveryResolver, WebhookResolver } from './webhook.resolver';
import { Webhook, WebhookAttempt, WebhookDelivery } from './webhook.entity';
import { nothing } from '../../access/duties';
import { type ModuleManifest, ref } from '../../access/module-manifest';
import type { WebhookService } from './webhook.service';

// What the composition root wires of the webhook module: the relay's fan-out and the delivery worker.
export { DeliveryWorker } from './webhook-delivery';
export { createDeliveries } from './webhook-fanout';
export { WebhookSender } from './webhook-sender';
export { EndpointGuard } from './endpoint-guard';

/** The services the webhook module owns in the context (wired in src/services.ts; src/access/module-services.ts). */
declare module '../../access/module-services' {
  interface ServicesByModule {
    webhook: {
      webhook: WebhookService;
    };
  }
}

/** The webhook module's manifest, collected by src/modules/manifests.ts. */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- a visibility rule reads a record of its own GraphQL type (src/access/module-manifest.ts) */
export const webhookModule: ModuleManifest<'webhook'> = {
  name: 'webhook',
  services: { webhook: true },
  resolvers: [WebhookResolver, WebhookDeliveryResolver, WebhookAttemptResolver],
  entities: [Webhook, WebhookDelivery, WebhookAttempt],
  mutationRoles: {
    registerWebhook: 'operator',
    testWebhook: 'operator',
    rotateWebhookSecret: 'operator',
    setWebhookStatus: 'operator',
    redeliverWebhookEvent: 'operator',
    recoverWebhookDeliveries: 'operator',
  },
  queryRoles: {},
  mutationDuties: {
    registerWebhook: nothing,
    testWebhook: nothing,
    rotateWebhookSecret: nothing,
    setWebhookStatus: nothing,
    redeliverWebhookEvent: nothing,
    recoverWebhookDeliveries: nothing,
  },
  visibility: {
    WebhookCheck: 'open',
    WebhookTestResult: 'open',
    DeliveriesReset: 'open',
    Webhook: { owner: (w) => ref(w.distributor) },
    WebhookWithSecret: { owner: (w) => ref(w.webhook?.distributor) },
    WebhookDelivery: { owner: async (d, ctx) => ref((await ctx.loaders.byId(Webhook).load(ref(d.webhook) ?? ''))?.distributor) },
    /** Attempt details (endpoint errors, latencies) are for operations. */
    WebhookAttempt: 'ops',
  },
};
/* eslint-enable @typescript-eslint/no-unsafe-member-access */
