/** The descriptor of the team module's table (src/reads/tables.ts): invitations, those of the caller's organizations. */
import { callerOrganizationSql, defineTable } from "../../reads/index.ts";

/** The `invitations` table: `Invitation` rows, visible to the members of their organization. */
export const invitationTable = defineTable("Invitation", "invitations", (sql, alias) =>
  callerOrganizationSql(sql, `${alias}.organization_id`),
);
