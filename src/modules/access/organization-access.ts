/**
 * Which organization a service acts on, and the caller's standing there, in one lookup (spec: Organization and
 * access resources; another organization's resource answers like a nonexistent one): visibility first
 * (NOT_FOUND), then the role and the plan (FORBIDDEN) — the access policy's `refusal` (src/auth/access/policy.ts).
 */
import { type Action, type RefusalOptions, refusal } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import type { AccessScope } from "./access-scope.ts";

/**
 * What {@link organizationAccess} looks up and checks; with `action`, `hideFromRoles` and `planFeature` as the
 * policy's `refusal` takes them.
 */
export interface OrganizationLookup extends RefusalOptions {
  /**
   * The organization acted on; omitted or null: the one the request acts on (the session's active one, the key's).
   * Any string names one ("": none such, 404).
   */
  organizationId?: string | null;
  /** An action the caller's role there must allow (with the organization's visibility and plan feature it needs). */
  action?: Action;
}

/**
 * The caller's standing in the organization `lookup` names, when it may act there.
 * @throws BadUserInputError (400) when no organization is named and the request acts on none (a user without
 * memberships); NotFoundError (404) when the caller is not a member there (or it does not exist), or when
 * its role is in `hideFromRoles` and does not allow `action`; ForbiddenError (403) when its role does not allow
 * `action` (the table in src/auth/access/policy.ts) or the plan lacks `planFeature`. An unauthenticated caller has
 * no standing: 404 (the resolvers ask for a caller first, 401).
 */
export async function organizationAccess(scope: AccessScope, lookup: OrganizationLookup = {}): Promise<OrgAccess> {
  const { organizationId, action, ...options } = lookup;
  const named = organizationId !== undefined && organizationId !== null;
  const access = named ? await scope.forOrg(organizationId) : await scope.active();
  if (!named && !access) {
    throw new BadUserInputError("No active organization: join or create an organization first", {
      formErrors: ["No active organization"],
    });
  }
  const id = named ? organizationId : access!.organizationId;
  const refused = action
    ? refusal(access, action, id, options)
    : access
      ? null
      : new NotFoundError("Organization", options.notFoundRef ?? id);
  if (refused) throw refused;
  return access!;
}
