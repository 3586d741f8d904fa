/**
 * Isolation-matrix rows of the webhooks module (schema/webhooks.graphql and `/api/v1/orgs/:org_id/…`): owners
 * and admins of organization A manage A's webhooks; members of A and owners of B get NOT_FOUND for the
 * organization (a member reads nothing here), invalid credentials 401. Targets are fresh endpoints of A inserted
 * directly (URLs on 127.0.0.1, allowed for the matrix server).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createSecretBox } from "../../../src/db/secrets.ts";
import { TEST_SECRET } from "../../helpers/seed.ts";
import type { Fixture } from "./fixture.ts";
import type { GraphqlRow, Outcome } from "./graphql-rows.ts";
import type { RestRow } from "./rest-rows.ts";

const box = createSecretBox(TEST_SECRET);
const HOOK_URL = "https://127.0.0.1:9/matrix";
const U = "UNAUTHENTICATED" as const;
const NF = "NOT_FOUND" as const;
const DATA = {
  user: { user_uuid: "u1", email: "a@example.test", username: "a" },
  course: { course_uuid: "c1", name: "C" },
};

/** A fresh inactive endpoint of A (inactive: no event reaches it). */
async function newWebhook(fx: Fixture): Promise<string> {
  const id = `webhook_${randomUUID()}`;
  await fx.knex("webhook_endpoints").insert({
    id,
    organization_id: fx.orgA,
    url: HOOK_URL,
    events: ["course_completed"],
    secret_encrypted: box.encrypt(`whsec_${randomBytes(32).toString("base64url")}`),
    is_active: false,
  });
  return id;
}

/**
 * A fresh active endpoint of A (a recovery refuses an inactive one) whose URL refuses connections: an event
 * published meanwhile only logs failed attempts.
 */
async function newActiveWebhook(fx: Fixture): Promise<string> {
  const id = await newWebhook(fx);
  await fx.knex("webhook_endpoints").where({ id }).update({ is_active: true });
  return id;
}

/** The last hour, as a recovery window's start. */
const HOUR_AGO = () => new Date(Date.now() - 3_600_000).toISOString();

/** A fresh active endpoint of A (a redelivery refuses an inactive one) with one failed delivery. */
async function newDelivery(fx: Fixture): Promise<{ webhook: string; delivery: string }> {
  const webhook = await newActiveWebhook(fx);
  const delivery = `dlv_${randomBytes(8).toString("hex")}`;
  await fx.knex("webhook_deliveries").insert({
    id: delivery,
    endpoint_id: webhook,
    organization_id: fx.orgA,
    event: "ping",
    body: "{}",
    status: "failed",
    attempts: 3,
  });
  return { webhook, delivery };
}

async function orgNumber(fx: Fixture): Promise<number> {
  return (await fx.knex("organizations").where({ id: fx.orgA }).first("database_id")).databaseId;
}

const gate = (ok: Outcome = "ok"): Record<string, Outcome> & GraphqlRow["expect"] => ({
  owner: ok,
  admin: ok,
  granted: NF,
  notGranted: NF,
  otherOwner: NF,
  revokedKey: U,
  anonymous: U,
  agentToken: U,
});
const status = (ok: number) => ({
  owner: ok,
  admin: ok,
  granted: 404,
  notGranted: 404,
  otherOwner: 404,
  revokedKey: 401,
  anonymous: 401,
  agentToken: 401,
});

/** GraphQL rows of the webhook root fields. */
export const webhookGraphqlRows: GraphqlRow[] = [
  {
    field: "Query.webhookEvents",
    operation: "query($org: ID!) { webhookEvents(organizationId: $org) { name } }",
    variables: (fx) => ({ org: fx.orgA }),
    expect: gate(),
  },
  {
    field: "Query.webhooks",
    operation: "query($org: ID!) { webhooks(organizationId: $org) { webhookUuid url } }",
    variables: (fx) => ({ org: fx.orgA }),
    expect: gate(),
  },
  {
    field: "Query.webhook",
    operation: "query($org: ID!, $id: ID!) { webhook(organizationId: $org, webhookUuid: $id) { webhookUuid } }",
    variables: async (fx) => ({ org: fx.orgA, id: await newWebhook(fx) }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Query.webhookDeliveries",
    operation:
      "query($org: ID!, $id: ID!) { webhookDeliveries(organizationId: $org, webhookUuid: $id) { deliveryId } }",
    variables: async (fx) => ({ org: fx.orgA, id: await newWebhook(fx) }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.createWebhook",
    operation:
      "mutation($org: ID!, $input: CreateWebhookInput!) { createWebhook(organizationId: $org, input: $input) { secret } }",
    variables: (fx) => ({ org: fx.orgA, input: { url: HOOK_URL, events: ["ping"], isActive: false } }),
    expect: gate(),
  },
  {
    field: "Mutation.updateWebhook",
    operation:
      'mutation($org: ID!, $id: ID!) { updateWebhook(organizationId: $org, webhookUuid: $id, input: { description: "x" }) { webhookUuid } }',
    variables: async (fx) => ({ org: fx.orgA, id: await newWebhook(fx) }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.deleteWebhook",
    operation: "mutation($org: ID!, $id: ID!) { deleteWebhook(organizationId: $org, webhookUuid: $id) }",
    variables: async (fx) => ({ org: fx.orgA, id: await newWebhook(fx) }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.regenerateWebhookSecret",
    operation:
      "mutation($org: ID!, $id: ID!) { regenerateWebhookSecret(organizationId: $org, webhookUuid: $id) { secret } }",
    variables: async (fx) => ({ org: fx.orgA, id: await newWebhook(fx) }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.testWebhook",
    operation: "mutation($org: ID!, $id: ID!) { testWebhook(organizationId: $org, webhookUuid: $id) { deliveryId } }",
    variables: async (fx) => ({ org: fx.orgA, id: await newWebhook(fx) }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.redeliverWebhook",
    operation:
      "mutation($org: ID!, $id: ID!, $d: String!) { redeliverWebhook(organizationId: $org, webhookUuid: $id, deliveryId: $d) }",
    variables: async (fx) => {
      const { webhook, delivery } = await newDelivery(fx);
      return { org: fx.orgA, id: webhook, d: delivery };
    },
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.recoverWebhookDeliveries",
    operation:
      "mutation($org: ID!, $id: ID!, $since: DateTime!) { recoverWebhookDeliveries(organizationId: $org, webhookUuid: $id, since: $since) { queued } }",
    variables: async (fx) => ({ org: fx.orgA, id: await newActiveWebhook(fx), since: HOUR_AGO() }),
    target: ["id"],
    expect: gate(),
  },
  {
    field: "Mutation.publishWebhookEvent",
    operation:
      'mutation($org: ID!, $data: JSONObject!) { publishWebhookEvent(organizationId: $org, event: "course_completed", data: $data) { deliveries { deliveryId } } }',
    variables: (fx) => ({ org: fx.orgA, data: DATA }),
    expect: gate(),
  },
];

/** REST rows of the webhook paths. */
export const webhookRestRows: RestRow[] = [
  {
    route: "GET /api/v1/orgs/:org_id/webhooks/events",
    call: async (fx) => ({ url: `/api/v1/orgs/${await orgNumber(fx)}/webhooks/events` }),
    expect: status(200),
  },
  {
    route: "POST /api/v1/orgs/:org_id/webhooks",
    call: async (fx) => ({
      url: `/api/v1/orgs/${await orgNumber(fx)}/webhooks`,
      body: { url: HOOK_URL, events: ["ping"], is_active: false },
    }),
    expect: status(201),
  },
  {
    route: "GET /api/v1/orgs/:org_id/webhooks",
    call: async (fx) => ({ url: `/api/v1/orgs/${await orgNumber(fx)}/webhooks` }),
    expect: status(200),
  },
  ...(
    [
      ["GET", "", 200],
      ["PUT", "", 200],
      ["DELETE", "", 204],
      ["POST", "/regenerate-secret", 200],
      ["POST", "/test", 200],
      ["GET", "/deliveries", 200],
    ] as const
  ).map(
    ([method, suffix, ok]): RestRow => ({
      route: `${method} /api/v1/orgs/:org_id/webhooks/:webhook_uuid${suffix}`,
      call: async (fx) => {
        const id = await newWebhook(fx);
        return {
          url: `/api/v1/orgs/${await orgNumber(fx)}/webhooks/${id}${suffix}`,
          body: method === "PUT" ? { description: "x" } : undefined,
          target: id,
        };
      },
      expect: status(ok),
    }),
  ),
  {
    route: "POST /api/v1/orgs/:org_id/webhooks/:webhook_uuid/deliveries/:delivery_id/redeliver",
    call: async (fx) => {
      const { webhook, delivery } = await newDelivery(fx);
      return {
        url: `/api/v1/orgs/${await orgNumber(fx)}/webhooks/${webhook}/deliveries/${delivery}/redeliver`,
        target: webhook,
      };
    },
    expect: status(202),
  },
  {
    route: "POST /api/v1/orgs/:org_id/webhooks/:webhook_uuid/recover",
    call: async (fx) => {
      const webhook = await newActiveWebhook(fx);
      return {
        url: `/api/v1/orgs/${await orgNumber(fx)}/webhooks/${webhook}/recover`,
        body: { since: HOUR_AGO() },
        target: webhook,
      };
    },
    expect: status(202),
  },
  {
    route: "POST /api/v1/orgs/:org_id/events",
    call: async (fx) => ({
      url: `/api/v1/orgs/${await orgNumber(fx)}/events`,
      body: { event: "course_completed", data: DATA },
    }),
    expect: status(202),
  },
];
