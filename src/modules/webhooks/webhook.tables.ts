/** The descriptor of the webhooks module's endpoints (src/reads/tables.ts): those of the caller's organizations. */
import { callerOrganizationSql, defineTable } from "../../reads/index.ts";

/** The `webhook_endpoints` table: `WebhookEndpoint` rows, visible to the members of their organization. */
export const webhookEndpointTable = defineTable("WebhookEndpoint", "webhook_endpoints", (sql, alias) =>
  callerOrganizationSql(sql, `${alias}.organization_id`),
);
