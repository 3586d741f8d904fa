/**
 * REST rows of the webhook management API (spec: Endpoints → Webhook management, prefix `/api/v1`) and of event
 * ingestion; each executes one operation of schema/webhooks.graphql. Bodies are snake_case as the spec's
 * resource. Errors: 400 `{ error, details: { fieldErrors, formErrors } }`; 401, 403 (`{ error, plan_feature }`
 * for the plan gate), 404, 429 (with `Retry-After`) and 500 `{ error }` (500 adds `errorId`).
 */
import type { RouteDoc } from "../../shared/openapi/route-doc.ts";
import { parseQuery } from "../../shared/query-params.ts";
import type { RestError, RestRequest, RestResponse, RestRoute } from "../../shared/rest-route.ts";
import { parseInput, toBadUserInput } from "../../shared/validate.ts";
import { createBody, emptyBody, publishBody, recoverBody, updateBody } from "./webhook.input.ts";
import { deliveriesQuery, webhookDocs } from "./webhook.openapi.ts";

type Data = Record<string, unknown>;

const ENDPOINT_FIELDS = "webhookUuid url events isActive description hasSecret createdByUserId creationDate updateDate";
const ATTEMPT_FIELDS = "deliveryId event attempt success responseStatus responseBody errorMessage durationMs createdAt";

/** The operations the rows execute. */
export const WEBHOOK_OPERATIONS = {
  events: `query WebhookEvents($org: ID!) { webhookEvents(organizationId: $org) { name category description dataSchema } }`,
  list: `query Webhooks($org: ID!) { webhooks(organizationId: $org) { ${ENDPOINT_FIELDS} } }`,
  get: `query Webhook($org: ID!, $id: ID!) { webhook(organizationId: $org, webhookUuid: $id) { ${ENDPOINT_FIELDS} } }`,
  create: `mutation CreateWebhook($org: ID!, $input: CreateWebhookInput!) {
    createWebhook(organizationId: $org, input: $input) { secret webhook { ${ENDPOINT_FIELDS} } } }`,
  update: `mutation UpdateWebhook($org: ID!, $id: ID!, $input: UpdateWebhookInput!) {
    updateWebhook(organizationId: $org, webhookUuid: $id, input: $input) { ${ENDPOINT_FIELDS} } }`,
  delete: `mutation DeleteWebhook($org: ID!, $id: ID!) { deleteWebhook(organizationId: $org, webhookUuid: $id) }`,
  regenerate: `mutation RegenerateWebhookSecret($org: ID!, $id: ID!) {
    regenerateWebhookSecret(organizationId: $org, webhookUuid: $id) { secret webhook { ${ENDPOINT_FIELDS} } } }`,
  test: `mutation TestWebhook($org: ID!, $id: ID!) {
    testWebhook(organizationId: $org, webhookUuid: $id) { deliveryId firstAttempt { ${ATTEMPT_FIELDS} } } }`,
  deliveries: `query WebhookDeliveries($org: ID!, $id: ID!, $limit: Int) {
    webhookDeliveries(organizationId: $org, webhookUuid: $id, limit: $limit) { ${ATTEMPT_FIELDS} } }`,
  redeliver: `mutation RedeliverWebhook($org: ID!, $id: ID!, $delivery: String!) {
    redeliverWebhook(organizationId: $org, webhookUuid: $id, deliveryId: $delivery) }`,
  recover: `mutation RecoverWebhookDeliveries($org: ID!, $id: ID!, $since: DateTime!, $until: DateTime) {
    recoverWebhookDeliveries(organizationId: $org, webhookUuid: $id, since: $since, until: $until) {
      recoveryId webhookUuid since until queued ratePerSecond alreadyRunning createdAt } }`,
  publish: `mutation PublishWebhookEvent($org: ID!, $event: String!, $data: JSONObject!) {
    publishWebhookEvent(organizationId: $org, event: $event, data: $data) { deliveries { webhookUuid deliveryId } } }`,
} as const;

/** `fooBar` → `foo_bar`. */
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** An object's keys in snake_case (one level). */
function snakeKeys(o: unknown): Data {
  return Object.fromEntries(Object.entries(o as Data).map(([k, v]) => [snake(k), v]));
}

/** The endpoint resource as the spec names it, with the secret when given. */
function resource(data: unknown, secret?: string): Data {
  const { has_secret, ...fields } = snakeKeys(data);
  return secret ? { ...fields, secret } : { ...fields, has_secret };
}

/** Documented error bodies; 429 adds `Retry-After`, the plan gate names the feature. */
function documentedError(error: RestError, status: number): RestResponse {
  const ext = (error.extensions ?? {}) as Data;
  if (status === 400) {
    return {
      status,
      body: { error: error.message, details: { fieldErrors: ext.fieldErrors ?? {}, formErrors: ext.formErrors ?? [] } },
    };
  }
  if (status === 429) {
    return { status, body: { error: error.message }, headers: { "retry-after": String(ext.retryAfter ?? 3600) } };
  }
  if (status === 403 && ext.planFeature)
    return { status, body: { error: error.message, plan_feature: ext.planFeature } };
  return { status, body: ext.errorId ? { error: error.message, errorId: ext.errorId } : { error: error.message } };
}

/** A published row under `/api/v1/orgs/:org_id`, with its contract. */
function row(
  doc: RouteDoc,
  method: RestRoute["method"],
  suffix: string,
  operation: string,
  variables: (req: RestRequest) => Data,
  respond: (data: Data) => RestResponse,
): RestRoute {
  return {
    method,
    path: `/api/v1/orgs/:org_id${suffix}`,
    surface: "rest",
    // The path names the organization: any the caller belongs to (a user JWT has no active organization).
    organization: "named",
    published: true,
    doc,
    operation,
    variables,
    respond,
    error: documentedError,
  };
}

const org = (req: RestRequest) => ({ org: req.params.org_id });
const one = (req: RestRequest) => ({ org: req.params.org_id, id: req.params.webhook_uuid });
/** {@link one} for a POST that takes no body: a body with fields is refused (400 naming them). */
const oneWithoutBody = (req: RestRequest) => {
  parseInput(emptyBody, req.body ?? {});
  return one(req);
};

/** `?limit=` (src/shared/query-params.ts's rule), absent: the service's default. @throws BadUserInputError. */
function limitOf(req: RestRequest): number | undefined {
  const query = parseQuery(deliveriesQuery, req);
  if (!query.success) throw toBadUserInput(query.error, "Invalid input");
  return query.data.limit;
}

/** Every webhook row. */
export const webhookRoutes: readonly RestRoute[] = [
  row(webhookDocs.events, "GET", "/webhooks/events", WEBHOOK_OPERATIONS.events, org, (d) => ({
    status: 200,
    body: (d.webhookEvents as Data[]).map((e) => ({
      name: e.name,
      category: e.category,
      description: e.description,
      data_schema: e.dataSchema,
    })),
  })),
  row(
    webhookDocs.create,
    "POST",
    "/webhooks",
    WEBHOOK_OPERATIONS.create,
    (req) => {
      const body = parseInput(createBody, req.body ?? {});
      return {
        ...org(req),
        input: { url: body.url, events: body.events, description: body.description, isActive: body.is_active },
      };
    },
    (d) => {
      const created = d.createWebhook as { secret: string; webhook: Data };
      return { status: 201, body: resource(created.webhook, created.secret) };
    },
  ),
  row(webhookDocs.list, "GET", "/webhooks", WEBHOOK_OPERATIONS.list, org, (d) => ({
    status: 200,
    body: (d.webhooks as Data[]).map((w) => resource(w)),
  })),
  row(webhookDocs.get, "GET", "/webhooks/:webhook_uuid", WEBHOOK_OPERATIONS.get, one, (d) => ({
    status: 200,
    body: resource(d.webhook),
  })),
  row(
    webhookDocs.update,
    "PUT",
    "/webhooks/:webhook_uuid",
    WEBHOOK_OPERATIONS.update,
    (req) => {
      // The body is required (an object of the fields to change; `{}` changes nothing): absent or null is 400.
      const body = parseInput(updateBody, req.body);
      return {
        ...one(req),
        input: { url: body.url, events: body.events, description: body.description, isActive: body.is_active },
      };
    },
    (d) => ({ status: 200, body: resource(d.updateWebhook) }),
  ),
  row(webhookDocs.delete, "DELETE", "/webhooks/:webhook_uuid", WEBHOOK_OPERATIONS.delete, one, () => ({
    status: 204,
    body: undefined,
  })),
  row(
    webhookDocs.regenerate,
    "POST",
    "/webhooks/:webhook_uuid/regenerate-secret",
    WEBHOOK_OPERATIONS.regenerate,
    oneWithoutBody,
    (d) => {
      const r = d.regenerateWebhookSecret as { secret: string; webhook: Data };
      return { status: 200, body: resource(r.webhook, r.secret) };
    },
  ),
  row(webhookDocs.test, "POST", "/webhooks/:webhook_uuid/test", WEBHOOK_OPERATIONS.test, oneWithoutBody, (d) => {
    const r = d.testWebhook as { deliveryId: string; firstAttempt: Data | null };
    if (!r.firstAttempt) return { status: 202, body: { delivery_id: r.deliveryId, event: "ping", pending: true } };
    return { status: 200, body: snakeKeys(r.firstAttempt) };
  }),
  row(
    webhookDocs.deliveries,
    "GET",
    "/webhooks/:webhook_uuid/deliveries",
    WEBHOOK_OPERATIONS.deliveries,
    (req) => ({ ...one(req), limit: limitOf(req) }),
    (d) => ({ status: 200, body: (d.webhookDeliveries as Data[]).map(snakeKeys) }),
  ),
  row(
    webhookDocs.redeliver,
    "POST",
    "/webhooks/:webhook_uuid/deliveries/:delivery_id/redeliver",
    WEBHOOK_OPERATIONS.redeliver,
    (req) => ({ ...oneWithoutBody(req), delivery: req.params.delivery_id }),
    (d) => ({ status: 202, body: { delivery_id: d.redeliverWebhook } }),
  ),
  row(
    webhookDocs.recover,
    "POST",
    "/webhooks/:webhook_uuid/recover",
    WEBHOOK_OPERATIONS.recover,
    (req) => {
      const body = parseInput(recoverBody, req.body ?? {});
      return { ...one(req), since: body.since, until: body.until };
    },
    (d) => ({ status: 202, body: snakeKeys(d.recoverWebhookDeliveries) }),
  ),
  row(
    webhookDocs.publish,
    "POST",
    "/events",
    WEBHOOK_OPERATIONS.publish,
    (req) => {
      const body = parseInput(publishBody, req.body ?? {});
      return { ...org(req), event: body.event, data: body.data };
    },
    (d) => {
      const r = d.publishWebhookEvent as { deliveries: Data[] };
      return { status: 202, body: { deliveries: r.deliveries.map(snakeKeys) } };
    },
  ),
];
