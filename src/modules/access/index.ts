/**
 * Module manifest: memberships, roles and grants of a caller (AccessScope), the one authorization policy, and the
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

export { memberAmong, organizationIdsOfUser } from "./access.queries.ts";
export type { OrgAccess, Principal, RememberedPrincipal } from "./access-scope.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export {
  AccessScope,
  orgAccessOf,
  standingOf,
  visibleApplicationSql,
  visibleProjectSql,
} from "./access-scope.ts";
export { type ExportedMember, exportMembers } from "./member.export.ts";
export type { Role } from "./member.model.ts";
export { Member, MemberGrant } from "./member.model.ts";
export {
  assertAllowed,
  assertCanDeleteApiKey,
  assertCanManageMember,
  assertSessionPrincipal,
  isAllowed,
  isAssignableRole,
  isLimitableByGrants,
  seesAllApiKeys,
} from "./policy.ts";
export {
  refusal,
  requireActiveOrganization,
  requireAllowed,
  requireOrganization,
  requirePlanFeature,
  requireTargetOrganization,
} from "./require-access.ts";
export {
  memberStandingJoinSql,
  type StandingSources,
  userMembershipsSql,
  useStandingSources,
} from "./standing.ts";
