/**
 * Module manifest: memberships, roles and grants of a caller (AccessScope; the policy judging them is
 * src/auth/access/policy.ts), and the
 * compiled reads of members and grants (schema/team.graphql's `Member`, `MemberGrant`).
 */
import { defineModule } from "../module.ts";
import { accessReads } from "./access.reads.ts";
import { memberGrantTable, memberTable } from "./access.tables.ts";

/** The access module. */
export const accessModule = defineModule({
  name: "access",
  tables: ["members", "member_grants"],
  reads: accessReads,
  descriptors: [memberTable, memberGrantTable],
});

export { insertGrantOnce, memberAmong, organizationIdsOfUser, ownerIdsOf } from "./access.queries.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { AccessScope } from "./access-scope.ts";
export { type ExportedMember, exportMembers } from "./member.export.ts";
export { Member, MemberGrant } from "./member.model.ts";
export { type OrganizationLookup, organizationAccess } from "./organization-access.ts";
export {
  memberStandingJoinSql,
  type StandingSources,
  userMembershipsSql,
  useStandingSources,
} from "./standing.ts";
