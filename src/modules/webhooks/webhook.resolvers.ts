/** Resolvers of schema/webhooks.graphql: thin calls into webhook.service.ts. */
import type { Resolvers } from "../../generated/graphql.ts";
import {
  createWebhook,
  deleteWebhook,
  listWebhookEventTypes,
  publishWebhookEvent,
  redeliverWebhook,
  regenerateWebhookSecret,
  testWebhook,
  updateWebhook,
} from "./webhook.service.ts";
import { recoverWebhookDeliveries } from "./webhook-recovery.ts";

/** Webhook queries and mutations (gated by webhook.service.ts; endpoint fields are compiled SQL). */
export const webhookResolvers: Resolvers = {
  Query: {
    webhookEvents: (_p, { organizationId }, ctx) => listWebhookEventTypes(ctx, organizationId),
  },
  Mutation: {
    createWebhook: (_p, { organizationId, input }, ctx) => createWebhook(ctx, organizationId, input),
    updateWebhook: (_p, { organizationId, webhookUuid, input }, ctx) =>
      updateWebhook(ctx, organizationId, webhookUuid, input),
    deleteWebhook: (_p, { organizationId, webhookUuid }, ctx) => deleteWebhook(ctx, organizationId, webhookUuid),
    regenerateWebhookSecret: (_p, { organizationId, webhookUuid }, ctx) =>
      regenerateWebhookSecret(ctx, organizationId, webhookUuid),
    testWebhook: (_p, { organizationId, webhookUuid }, ctx) => testWebhook(ctx, organizationId, webhookUuid),
    redeliverWebhook: (_p, { organizationId, webhookUuid, deliveryId }, ctx) =>
      redeliverWebhook(ctx, organizationId, webhookUuid, deliveryId),
    recoverWebhookDeliveries: (_p, { organizationId, webhookUuid, since, until }, ctx) =>
      recoverWebhookDeliveries(ctx, organizationId, webhookUuid, { since, until }),
    publishWebhookEvent: async (_p, { organizationId, event, data }, ctx) => ({
      deliveries: await publishWebhookEvent(ctx, organizationId, event, data),
    }),
  },
};
