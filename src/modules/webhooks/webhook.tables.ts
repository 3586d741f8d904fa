/** The descriptor of the webhooks module's endpoints (src/reads/tables.ts): those of the caller's organizations. */
import { callerOrganizationSql, defineTable } from "../../reads/index.ts";

/** The `webhook_endpoints` table: `WebhookEndpoint` rows, visible to the members of their organization. */
export const webhookEndpointTable = defineTable(
  "WebhookEndpoint",
  "webhook_endpoints",
  [
    "id",
    "organization_id",
    "url",
    "events",
    "secret_encrypted",
    "is_active",
    "description",
    "created_by_user_id",
    "failing_since",
    "created_at",
    "updated_at",
  ],
  (sql, alias) => callerOrganizationSql(sql, `${alias}.organization_id`),
);
