/**
 * Compiled-read SQL of members and grants (schema/team.graphql; src/reads/compiler.ts), the only implementation
 * of these reads: every member of an organization sees its members and their grants (another organization's are
 * invisible: NOT_FOUND for the organization). A member's user and organization and a grant's project and application
 * are declared by the modules owning those tables.
 */
import { hasMany, type ReadTypes } from "../../reads/index.ts";
import { memberGrantTable, memberTable } from "./access.tables.ts";

/** Organization.members, Member and MemberGrant. */
export const accessReads: ReadTypes = {
  // Members, oldest first (Organization is the organizations module's type; the table is ours).
  Organization: {
    members: hasMany(memberTable, "organization_id"),
  },
  Member: {
    grants: hasMany(memberGrantTable, "member_id"),
  },
};
