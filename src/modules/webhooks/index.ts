/**
 * Module manifest: webhooks — endpoints, event catalogue, signed durable delivery, delivery log
 * (schema/webhooks.graphql, `/api/v1/orgs/:org_id/webhooks*`, `/api/v1/orgs/:org_id/events`; the deliveries'
 * own queue and its dispatcher; jobs `webhooks.prune`, and `webhooks.deliver` of the previous release).
 */
import { defineModule } from "../module.ts";
import { deliverWebhookJob, pruneWebhookAttemptsJob } from "./webhook.jobs.ts";
import { webhookReads } from "./webhook.reads.ts";
import { webhookResolvers } from "./webhook.resolvers.ts";
import { webhookRoutes } from "./webhook.rest.ts";
import { webhookEndpointTable } from "./webhook.tables.ts";
import { startWebhookDispatcher } from "./webhook-dispatcher.ts";
import { emitWebhookEvent } from "./webhook-emit.ts";

/** The webhooks module. */
export const webhooksModule = defineModule({
  name: "webhooks",
  tables: ["webhook_endpoints", "webhook_deliveries", "webhook_delivery_attempts", "webhook_recoveries"],
  reads: webhookReads,
  descriptors: [webhookEndpointTable],
  resolvers: webhookResolvers,
  restRoutes: webhookRoutes,
  jobs: [deliverWebhookJob, pruneWebhookAttemptsJob],
  // Each instance that runs background work runs one dispatcher of the deliveries' queue.
  workers: [startWebhookDispatcher],
  // Every domain event becomes deliveries to the organization's subscribed endpoints, in the emitter's transaction.
  onEvent: async (ctx, event) => {
    // Live events are for subscriptions only; what the site import API causes is not sent out (spec doc 1, Events).
    if (event.kind !== "webhook" || !event.outbound) return;
    await emitWebhookEvent(ctx, event.organizationId, event.name, event.data as Record<string, unknown>);
  },
});

// The public surface: what other modules may import (they import nothing else of this folder). Webhooks listen to
// domain events through `onEvent`; the organization export reads the endpoints.
export { type ExportedWebhookEndpoint, exportWebhookEndpoints } from "./webhook.export.ts";
// For the organization import: the `createWebhook` mutation's service (it accepts the bundle's signing secret).
export { createWebhook } from "./webhook.service.ts";
