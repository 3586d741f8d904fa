/**
 * Contracts of the webhook management API (spec: Endpoints → Webhook management, `/api/v1/orgs/:org_id/...`)
 * for the generated /api/openapi.json. Request bodies are the schemas the rows validate with (webhook.input.ts);
 * response schemas describe the snake_case bodies the rows shape (webhook.rest.ts).
 */
import { z } from "zod";
import { errorResponses } from "../../shared/openapi/error-bodies.ts";
import type { RouteDoc } from "../../shared/openapi/route-doc.ts";
import { queryInteger } from "../../shared/query-params.ts";
import { createBody, publishBody, recoverBody, updateBody } from "./webhook.input.ts";

const dateTime = z.string().meta({ format: "date-time" });

const endpointFields = {
  webhook_uuid: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  is_active: z.boolean(),
  description: z.string().nullable(),
  created_by_user_id: z.string().nullable(),
  creation_date: dateTime,
  update_date: dateTime,
};

/** A webhook endpoint (the secret is never shown again: `has_secret`). */
export const WebhookBody = z
  .looseObject({ ...endpointFields, has_secret: z.boolean() })
  .meta({ id: "Webhook", description: "A webhook endpoint." });

/** A webhook endpoint with its signing secret, shown once (create, regenerate-secret). */
export const WebhookWithSecretBody = z
  .looseObject({ ...endpointFields, secret: z.string() })
  .meta({ id: "WebhookWithSecret", description: "A webhook endpoint with its secret, shown only in this answer." });

/** One delivery attempt. */
export const DeliveryAttemptBody = z
  .looseObject({
    delivery_id: z.string(),
    event: z.string(),
    attempt: z.int().min(1),
    success: z.boolean(),
    response_status: z.int().nullable(),
    response_body: z.string().nullable(),
    error_message: z.string().nullable(),
    duration_ms: z.int().min(0),
    created_at: dateTime,
  })
  .meta({ id: "DeliveryAttempt" });

/** A recovery of an endpoint's undelivered deliveries. */
const RecoveryBody = z
  .looseObject({
    recovery_id: z.string(),
    webhook_uuid: z.string(),
    since: dateTime,
    until: dateTime,
    queued: z.int().min(0).meta({ description: "Deliveries queued again." }),
    rate_per_second: z.int().min(1).meta({ description: "First attempts per second." }),
    already_running: z
      .boolean()
      .meta({ description: "True: the same window's recovery was still running; nothing was queued again." }),
    created_at: dateTime,
  })
  .meta({ id: "WebhookRecovery" });

const EventTypeBody = z
  .looseObject({
    name: z.string(),
    category: z.string(),
    description: z.string(),
    data_schema: z.record(z.string(), z.unknown()).meta({ description: "JSON Schema of the event's `data`." }),
  })
  .meta({ id: "WebhookEventType" });

const orgId = z.string().meta({ description: "Organization id (`org_...`)." });
const webhookUuid = z.string().meta({ description: "Webhook endpoint id." });
const orgParams = z.object({ org_id: orgId });
const oneParams = z.object({ org_id: orgId, webhook_uuid: webhookUuid });

/** Query of the deliveries list, also what the row validates `limit` with (src/shared/query-params.ts's rule). */
export const deliveriesQuery = z.object({
  limit: queryInteger({ min: 1, max: 200, default: 50, description: "1 to 200 (default 50)." }),
});

/** Errors every management path may answer. */
const common = errorResponses(401, 403, 404, 429, 500);
const tag = "webhooks";

/** Contracts of the webhook rows, by key. */
export const webhookDocs = {
  events: {
    operationId: "listWebhookEvents",
    summary: "The event catalogue: every event name with the JSON Schema of its data",
    tag,
    params: orgParams,
    responses: { "200": { description: "The catalogue.", schema: z.array(EventTypeBody) }, ...common },
  },
  create: {
    operationId: "createWebhook",
    summary: "Create a webhook endpoint (the secret is shown once)",
    tag,
    params: orgParams,
    body: createBody,
    responses: {
      "201": { description: "Created.", schema: WebhookWithSecretBody },
      ...errorResponses(400),
      ...common,
    },
  },
  list: {
    operationId: "listWebhooks",
    summary: "The organization's webhook endpoints",
    tag,
    params: orgParams,
    responses: { "200": { description: "Every endpoint.", schema: z.array(WebhookBody) }, ...common },
  },
  get: {
    operationId: "getWebhook",
    summary: "One webhook endpoint",
    tag,
    params: oneParams,
    responses: { "200": { description: "The endpoint.", schema: WebhookBody }, ...common },
  },
  update: {
    operationId: "updateWebhook",
    summary: "Change a webhook endpoint's url, events, description or active flag",
    tag,
    params: oneParams,
    body: updateBody,
    responses: { "200": { description: "Updated.", schema: WebhookBody }, ...errorResponses(400), ...common },
  },
  delete: {
    operationId: "deleteWebhook",
    summary: "Delete a webhook endpoint",
    tag,
    params: oneParams,
    responses: { "204": { description: "Deleted." }, ...common },
  },
  regenerate: {
    operationId: "regenerateWebhookSecret",
    summary: "Replace the signing secret (shown once)",
    tag,
    params: oneParams,
    responses: { "200": { description: "The new secret.", schema: WebhookWithSecretBody }, ...common },
  },
  test: {
    operationId: "testWebhook",
    summary: "Send a `ping` event now",
    tag,
    params: oneParams,
    responses: {
      "200": { description: "The first attempt's outcome.", schema: DeliveryAttemptBody },
      "202": {
        description: "Queued; the first attempt has not finished in time.",
        schema: z.looseObject({ delivery_id: z.string(), event: z.literal("ping"), pending: z.literal(true) }),
      },
      ...common,
    },
  },
  deliveries: {
    operationId: "listWebhookDeliveries",
    summary: "Recent delivery attempts of an endpoint, newest first",
    tag,
    params: oneParams,
    query: deliveriesQuery,
    responses: {
      "200": { description: "Attempts.", schema: z.array(DeliveryAttemptBody) },
      ...errorResponses(400),
      ...common,
    },
  },
  redeliver: {
    operationId: "redeliverWebhook",
    summary: "Deliver an earlier delivery's payload again (400 while the endpoint is inactive)",
    tag,
    params: z.object({ org_id: orgId, webhook_uuid: webhookUuid, delivery_id: z.string() }),
    responses: {
      "202": { description: "Queued.", schema: z.looseObject({ delivery_id: z.string() }) },
      ...errorResponses(400),
      ...common,
    },
  },
  recover: {
    operationId: "recoverWebhookDeliveries",
    summary: "Send again every delivery of a time window that did not end delivered (recovery after downtime)",
    tag,
    params: oneParams,
    body: recoverBody,
    responses: {
      "202": { description: "Queued (or the same window's recovery still running).", schema: RecoveryBody },
      ...errorResponses(400),
      ...common,
    },
  },
  publish: {
    operationId: "publishEvent",
    summary: "Publish an event to every subscribed endpoint of the organization",
    tag,
    params: orgParams,
    body: publishBody,
    responses: {
      "202": {
        description: "Queued deliveries.",
        schema: z.looseObject({
          deliveries: z.array(z.looseObject({ webhook_uuid: z.string(), delivery_id: z.string() })),
        }),
      },
      ...errorResponses(400),
      ...common,
    },
  },
} satisfies Record<string, RouteDoc>;
