/** The descriptor of the team module's table (src/reads/tables.ts): invitations, those of the caller's organizations. */
import { callerOrganizationSql, defineTable } from "../../reads/index.ts";

/** The `invitations` table: `Invitation` rows, visible to the members of their organization. */
export const invitationTable = defineTable(
  "Invitation",
  "invitations",
  [
    "id",
    "organization_id",
    "email",
    "role",
    "status",
    "inviter_id",
    "expires_at",
    "created_at",
    "token_hash",
    "token_encrypted",
    "pending_grants",
    "limited_to_grants",
  ],
  (sql, alias) => callerOrganizationSql(sql, `${alias}.organization_id`),
);
