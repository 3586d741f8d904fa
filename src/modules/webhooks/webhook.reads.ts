/**
 * Compiled-read SQL of schema/webhooks.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * an organization's endpoints (oldest first), one endpoint, and an endpoint's delivery log (newest first). The
 * webhooks gate (webhook-access.ts: the organization named by its TypeID or integer id; 404 for non-members and
 * members, 403 naming the `webhooks` plan feature) is decided inside the statement: the caller's standing in each
 * of its organizations is known before it runs, so the SQL picks the value or the gate's error for the organization
 * the reference names. The secret is never read: `hasSecret` is always true (every endpoint has one).
 */

import { refusal } from "../../auth/access/policy.ts";
import {
  column,
  type JsonSql,
  type ReadCompiler,
  type ReadField,
  type ReadTypes,
  timestamp,
} from "../../reads/index.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { organizationRefSql } from "../organizations/index.ts";
import { DELIVERIES_LIMIT } from "./webhook.service.ts";
import { WEBHOOK_GATE } from "./webhook-access.ts";

/**
 * SQL answering `value(organizationIdSql)` for the organization `ref` (an `org_…` TypeID or an integer id as
 * digits) when the webhooks gate lets the caller in, else the gate's error (NOT_FOUND naming `ref`, or FORBIDDEN).
 */
function gated(
  compiler: ReadCompiler,
  ref: string,
  value: (organizationIdSql: string) => JsonSql | null,
): JsonSql | null {
  const organizationId = organizationRefSql(compiler, ref);
  const o = compiler.alias();
  const allowed: string[] = [];
  const refused: string[] = [];
  for (const access of compiler.caller.orgs.values()) {
    const error = refusal(access, WEBHOOK_GATE.action, access.organizationId, { ...WEBHOOK_GATE, notFoundRef: ref });
    if (error) refused.push(`when ${o}.id = ${compiler.param(access.organizationId)} then ${compiler.fail(error).sql}`);
    else allowed.push(access.organizationId);
  }
  let pass = "";
  if (allowed.length) {
    const passed = value(`${o}.id`);
    if (!passed) return null;
    pass = `when ${o}.id = any(${compiler.param(allowed)}::text[]) then ${passed.sql}`;
  }
  const notFound = compiler.fail(new NotFoundError("Organization", ref));
  return compiler.json(
    `(select case ${pass} ${refused.join(" ")} else ${notFound.sql} end from (select ${organizationId}::text as id) ${o})`,
  );
}

/** The `organizationId` and `webhookUuid` arguments of `field`. */
const refs = (field: ReadField) => ({
  org: String(field.args.organizationId),
  uuid: String(field.args.webhookUuid),
});

/** Query.webhooks/webhook/webhookDeliveries, WebhookEndpoint and WebhookDeliveryAttempt. */
export const webhookReads: ReadTypes = {
  Query: {
    webhooks: (field) => {
      const { compiler, nodes, returnType } = field;
      return gated(compiler, refs(field).org, (org) => {
        const w = compiler.alias();
        const from = `from webhook_endpoints ${w} where ${w}.organization_id = ${org}`;
        return compiler.list(returnType, w, nodes, from, `${w}.created_at, ${w}.id`);
      });
    },
    webhook: (field) => {
      const { compiler, nodes, returnType } = field;
      const { org: ref, uuid } = refs(field);
      return gated(compiler, ref, (org) => {
        const w = compiler.alias();
        const endpoint = compiler.one(
          returnType,
          w,
          nodes,
          `from webhook_endpoints ${w} where ${w}.id = ${compiler.param(uuid)} and ${w}.organization_id = ${org}`,
        );
        return (
          endpoint &&
          compiler.json(`coalesce(${endpoint.sql}, ${compiler.fail(new NotFoundError("Webhook", uuid)).sql})`)
        );
      });
    },
    // Newest first; `limit` 1..200 (default 50). The gate is checked before the limit, as the REST path does.
    webhookDeliveries: (field) => {
      const { compiler, nodes, returnType } = field;
      const { org: ref, uuid } = refs(field);
      const limit = field.args.limit ?? DELIVERIES_LIMIT.default;
      return gated(compiler, ref, (org) => {
        if (
          typeof limit !== "number" ||
          !Number.isInteger(limit) ||
          limit < DELIVERIES_LIMIT.min ||
          limit > DELIVERIES_LIMIT.max
        ) {
          return compiler.fail(
            new BadUserInputError("Invalid input: limit: must be an integer from 1 to 200", {
              fieldErrors: { limit: ["Must be an integer from 1 to 200"] },
            }),
          );
        }
        const [w, d, a] = [compiler.alias(), compiler.alias(), compiler.alias()];
        const attempts = `from (select * from webhook_delivery_attempts ${a} where ${a}.endpoint_id = ${w}.id
          order by ${a}.id desc limit ${compiler.param(limit)}) ${d}`;
        const list = compiler.list(returnType, d, nodes, attempts, `${d}.id desc`);
        if (!list) return null;
        const endpoint = `(select ${list.sql} from webhook_endpoints ${w} where ${w}.id = ${compiler.param(uuid)} and ${w}.organization_id = ${org})`;
        return compiler.json(`coalesce(${endpoint}, ${compiler.fail(new NotFoundError("Webhook", uuid)).sql})`);
      });
    },
  },
  WebhookEndpoint: {
    webhookUuid: column("id"),
    events: ({ alias }) => `to_json(${alias}.events)`,
    hasSecret: () => "true",
    creationDate: timestamp("created_at"),
    updateDate: timestamp("updated_at"),
  },
  WebhookDeliveryAttempt: {
    deliveryId: column("delivery_id"),
    event: column("event"),
    attempt: column("attempt"),
    success: column("success"),
    responseStatus: column("response_status"),
    responseBody: column("response_body"),
    errorMessage: column("error_message"),
    durationMs: column("duration_ms"),
    createdAt: timestamp("created_at"),
  },
};
