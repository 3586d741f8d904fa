/**
 * Visibility gates used by services before any role check (spec: another organization's resource answers like
 * a nonexistent one): the caller's standing in an organization, or NOT_FOUND.
 */
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import type { AccessScope, OrgAccess } from "./access-scope.ts";

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
