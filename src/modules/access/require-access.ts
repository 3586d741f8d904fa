/**
 * The caller's standing in an organization as the services look it up (spec: Organization and access resources;
 * another organization's resource answers like a nonexistent one): visibility first (NOT_FOUND), then, with
 * {@link requireAllowed}, the role (FORBIDDEN) — the access policy's `refusal` (src/auth/access/policy.ts).
 */
import { type Action, type RefusalOptions, refusal } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import type { AccessScope } from "./access-scope.ts";

/** The caller's access to `organizationId`. @throws NotFoundError when it is not a member there (or it does not exist). */
export async function requireOrganization(scope: AccessScope, organizationId: string): Promise<OrgAccess> {
  const access = await scope.forOrg(organizationId);
  if (!access) throw new NotFoundError("Organization", organizationId);
  return access;
}

/**
 * The caller's access to the organization the request acts on (session's active one, or the API key's).
 * @throws BadUserInputError when there is none (a user without memberships).
 */
export async function requireActiveOrganization(scope: AccessScope): Promise<OrgAccess> {
  const access = await scope.active();
  if (!access) {
    throw new BadUserInputError("No active organization: join or create an organization first", {
      formErrors: ["No active organization"],
    });
  }
  return access;
}

/** {@link requireOrganization} for `organizationId` when given, else {@link requireActiveOrganization}. */
export function requireTargetOrganization(scope: AccessScope, organizationId?: string | null): Promise<OrgAccess> {
  return organizationId ? requireOrganization(scope, organizationId) : requireActiveOrganization(scope);
}

/**
 * The one role gate: the caller's access to `organizationId` when its role there allows `action`.
 * @throws NotFoundError when the caller is not a member (the organization is invisible), or when its role is in
 * `options.hideFromRoles` and does not allow `action`; ForbiddenError when the role does not allow `action` (see
 * the table in src/auth/access/policy.ts).
 */
export async function requireAllowed(
  scope: AccessScope,
  action: Action,
  organizationId: string,
  options: Omit<RefusalOptions, "planFeature"> = {},
): Promise<OrgAccess> {
  const access = await scope.forOrg(organizationId);
  const refused = refusal(access, action, organizationId, options);
  if (refused) throw refused;
  return access!;
}
