/** Resolvers of schema/webhooks.graphql: thin calls into webhook.service.ts. */
import type { Resolvers } from "../../generated/graphql.ts";
import { organizationsTable } from "../organizations/index.ts";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhookEventTypes,
  listWebhooks,
  publishWebhookEvent,
  redeliverWebhook,
  regenerateWebhookSecret,
  testWebhook,
  updateWebhook,
} from "./webhook.service.ts";

/** Webhook queries, mutations and field resolvers (plus `Organization.databaseId`). */
export const webhookResolvers: Resolvers = {
  Query: {
    webhookEvents: (_p, { organizationId }, ctx) => listWebhookEventTypes(ctx, organizationId),
    webhooks: (_p, { organizationId }, ctx) => listWebhooks(ctx, organizationId),
    webhook: (_p, { organizationId, webhookUuid }, ctx) => getWebhook(ctx, organizationId, webhookUuid),
    webhookDeliveries: (_p, { organizationId, webhookUuid, limit }, ctx) =>
      listWebhookDeliveries(ctx, organizationId, webhookUuid, limit ?? undefined),
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
    publishWebhookEvent: async (_p, { organizationId, event, data }, ctx) => ({
      deliveries: await publishWebhookEvent(ctx, organizationId, event, data),
    }),
  },
  Organization: {
    databaseId: async (o, _a, ctx) => {
      const known = (o as { databaseId?: number }).databaseId;
      if (typeof known === "number") return known;
      const row = await organizationsTable(ctx.knex).where({ id: o.id }).first("database_id");
      return row.databaseId as number;
    },
  },
  WebhookEndpoint: {
    webhookUuid: (w) => w.id,
    hasSecret: () => true,
    creationDate: (w) => w.createdAt,
    updateDate: (w) => w.updatedAt,
  },
};
