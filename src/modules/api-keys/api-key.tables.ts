/**
 * The descriptor of the API keys module's table (src/reads/tables.ts): keys are personal — owners and admins see
 * every key of their organization, members only their own, another organization's none.
 */
import { can } from "../../auth/access/policy.ts";
import { defineTable, type SqlVisibility } from "../../reads/index.ts";

/** The condition "API key row `alias` is visible to the caller" (SQL). */
function visibleApiKey(sql: SqlVisibility, alias: string): string {
  const { caller } = sql;
  const parts = [...caller.orgs.values()].map((access) => {
    const org = `${alias}.organization_id = ${sql.param(access.organizationId)}`;
    return can(access, "apiKey:manage-others")
      ? org
      : `(${org} and ${alias}.reference_id = ${sql.param(caller.userId ?? "")})`;
  });
  return parts.length ? `(${parts.join(" or ")})` : "false";
}

/** The `api_keys` table: `ApiKey` rows. */
export const apiKeyTable = defineTable(
  "ApiKey",
  "api_keys",
  [
    "id",
    "config_id",
    "name",
    "start",
    "prefix",
    "key",
    "reference_id",
    "organization_id",
    "enabled",
    "expires_at",
    "permissions",
    "metadata",
    "refill_interval",
    "refill_amount",
    "last_refill_at",
    "rate_limit_enabled",
    "rate_limit_time_window",
    "rate_limit_max",
    "request_count",
    "remaining",
    "last_request",
    "created_at",
    "updated_at",
  ],
  visibleApiKey,
);
