/**
 * The descriptors of the access module's tables (src/reads/tables.ts): the members of the caller's organizations,
 * and their grants, visible with their member.
 */
import { callerOrganizationSql, defineChildTable, defineTable } from "../../reads/index.ts";

/** The `members` table: `Member` rows, those of the caller's organizations. */
export const memberTable = defineTable(
  "Member",
  "members",
  ["id", "organization_id", "user_id", "role", "created_at", "standing_version", "limited_to_grants"],
  (sql, alias) => callerOrganizationSql(sql, `${alias}.organization_id`),
);

/** The `member_grants` table: `MemberGrant` rows, visible with their member. */
export const memberGrantTable = defineChildTable(
  "MemberGrant",
  "member_grants",
  ["id", "member_id", "project_id", "application_id", "created_at"],
  memberTable,
  "member_id",
);
