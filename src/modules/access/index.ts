/** Module manifest: memberships, roles and grants of a caller (AccessScope) and the one authorization policy; contributes no schema. */
import { defineModule } from "../module.ts";

/** The access module. */
export const accessModule = defineModule({
  name: "access",
  tables: ["members", "member_grants"],
});

export { membersTable } from "./access.queries.ts";
export type { OrgAccess, Principal, SqlCondition } from "./access-scope.ts";
// The public surface: what other modules may import (issue 24; they import nothing else of this folder).
export {
  AccessScope,
  canSeeApplication,
  canSeeProject,
  orgAccessOf,
  visibleApplicationSql,
  visibleProjectSql,
} from "./access-scope.ts";
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
  requireActiveOrganization,
  requireAllowed,
  requireOrganization,
  requirePlanFeature,
  requireTargetOrganization,
} from "./require-access.ts";
