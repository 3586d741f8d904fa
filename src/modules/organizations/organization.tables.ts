/**
 * The descriptors of the organizations module's tables (src/reads/tables.ts): organizations, visible to their
 * members; users, of whom a caller finds by id only itself, while the person behind a row it sees (a member, an
 * invitation's inviter, an API key's creator) is read with that row; and notification channels, visible to the
 * members of their organization.
 */
import { callerOrganizationSql, defineTable, type SqlVisibility } from "../../reads/index.ts";

/** The condition "organization row `alias` is one the caller belongs to" (SQL). */
export function memberOf(sql: SqlVisibility, alias: string): string {
  return callerOrganizationSql(sql, `${alias}.id`);
}

/** The `organizations` table: `Organization` rows, visible to their members. */
export const organizationTable = defineTable(
  "Organization",
  "organizations",
  ["id", "name", "slug", "logo", "metadata", "created_at", "plan_id", "database_id"],
  memberOf,
);

/** The `users` table found by id: `User` rows, the caller's own only. */
export const userTable = defineTable(
  "User",
  "users",
  ["id", "name", "email", "email_verified", "image", "two_factor_enabled", "created_at", "updated_at"],
  (sql, alias) => `${alias}.id = ${sql.param(sql.caller.userId ?? "")}`,
);

/**
 * The `users` table as the target of a relation from a row the caller sees (`Member.user`, `Invitation.invitedBy`,
 * `ApiKey.createdBy`): the person behind a visible row is visible with it (no condition of its own). Never a row
 * source: found by id, a user is {@link userTable}.
 */
export const relatedUserTable = defineTable("User", "users", userTable.columns, () => "true");

/**
 * The `notification_channels` table: `NotificationChannel` rows, visible to the members of their organization (read
 * only inside their organization's SQL: not a row source of its own).
 */
export const notificationChannelTable = defineTable(
  "NotificationChannel",
  "notification_channels",
  ["id", "organization_id", "type", "name", "target", "created_at"],
  (sql, alias) => callerOrganizationSql(sql, `${alias}.organization_id`),
  { foundById: false },
);
