/**
 * Module manifest: webhooks — endpoints, event catalogue, signed durable delivery, delivery log
 * (schema/webhooks.graphql, `/api/v1/orgs/:org_id/webhooks*`, `/api/v1/orgs/:org_id/events`; jobs
 * `webhooks.deliver`, `webhooks.prune`).
 */
import { defineModule } from "../module.ts";
import { deliverWebhookJob, pruneWebhookAttemptsJob } from "./webhook.jobs.ts";
import { webhookResolvers } from "./webhook.resolvers.ts";
import { webhookRoutes } from "./webhook.rest.ts";

/** The webhooks module. */
export const webhooksModule = defineModule({
  name: "webhooks",
  tables: ["webhook_endpoints", "webhook_deliveries", "webhook_delivery_attempts"],
  resolvers: webhookResolvers,
  restRoutes: webhookRoutes,
  jobs: [deliverWebhookJob, pruneWebhookAttemptsJob],
});

// The public surface: what other modules may import (issue 24; they import nothing else of this folder).
export { emitAccountEvent, emitInvited, emitRemoved, emitRoleChanged } from "./account-events.ts";
export { emitWebhookEvent } from "./webhook-emit.ts";
