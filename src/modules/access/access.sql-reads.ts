/**
 * Compiled-read SQL of members and grants (schema/team.graphql; src/reads/compiler.ts), the only implementation
 * of these reads: every member of an organization sees its members and their grants (another organization's are
 * invisible: NOT_FOUND for the organization), and where a member or a grant is found by id. A member's user and
 * organization and a grant's project and application are declared by the modules owning those tables.
 */
import {
  callerOrganizationSql,
  checkedEnum,
  column,
  hasMany,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";

/** Where members and grants are found by id: those of the caller's organizations. */
export const accessSqlRows: SqlReadRows = {
  Member: {
    table: "members",
    visible: (compiler, alias) => callerOrganizationSql(compiler, `${alias}.organization_id`),
  },
  MemberGrant: {
    table: "member_grants",
    visible: (compiler, alias) => {
      const m = compiler.alias();
      const member = `select 1 from members ${m} where ${m}.id = ${alias}.member_id`;
      return `exists (${member} and ${callerOrganizationSql(compiler, `${m}.organization_id`)})`;
    },
  },
};

/** Organization.members, Member and MemberGrant. */
export const accessSqlReads: SqlReadTypes = {
  // Members, oldest first (Organization is the organizations module's type; the table is ours).
  Organization: {
    members: hasMany("Member", "members", "organization_id"),
  },
  Member: {
    id: column("id"),
    role: checkedEnum("role"),
    createdAt: timestamp("created_at"),
    grants: hasMany("MemberGrant", "member_grants", "member_id"),
  },
  MemberGrant: {
    id: column("id"),
    createdAt: timestamp("created_at"),
  },
};
