/**
 * The access gates every service calls (spec: Organization and access resources; another organization's resource
 * answers like a nonexistent one): visibility first (NOT_FOUND), then the role ({@link requireAllowed}, FORBIDDEN),
 * then the plan ({@link requirePlanFeature}, FORBIDDEN naming the feature).
 */
import { BadUserInputError, ForbiddenError, NotFoundError } from "../../shared/errors.ts";
import type { AccessScope, OrgAccess } from "./access-scope.ts";
import type { Role } from "./member.model.ts";
import { type Action, assertAllowed, isAllowed } from "./policy.ts";

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

/** Options of {@link requireAllowed}. */
export interface RequireAllowedOptions {
  /**
   * Roles to which the organization is invisible for this action: a caller with one of them whose role does not
   * allow `action` gets NotFoundError (as a non-member would), not ForbiddenError — e.g. `["member"]` for
   * webhooks and docs theming, where a member reads nothing.
   */
  hideFromRoles?: readonly Role[];
  /** How the 404 names the organization (default `organizationId`; e.g. the integer id the caller gave). */
  notFoundRef?: string;
}

/**
 * The one role gate: the caller's access to `organizationId` when its role there allows `action`.
 * @throws NotFoundError when the caller is not a member (the organization is invisible), or when its role is in
 * `options.hideFromRoles` and does not allow `action`; ForbiddenError when the role does not allow `action` (see
 * the table in policy.ts).
 */
export async function requireAllowed(
  scope: AccessScope,
  action: Action,
  organizationId: string,
  options: RequireAllowedOptions = {},
): Promise<OrgAccess> {
  const access = await scope.forOrg(organizationId);
  const refused = refusal(access, action, organizationId, options);
  if (refused) throw refused;
  return access!;
}

/**
 * What {@link requireAllowed} throws for a caller whose standing in `organizationId` is `access` (null: not a
 * member), or null when it passes; then, with `planFeature`, what {@link requirePlanFeature} throws. Synchronous,
 * for compiled reads that decide the gate per organization inside their SQL.
 */
export function refusal(
  access: OrgAccess | null,
  action: Action,
  organizationId: string,
  options: RequireAllowedOptions & { planFeature?: { feature: string; what: string } } = {},
): Error | null {
  const hidden = access !== null && options.hideFromRoles?.includes(access.role) && !isAllowed(access.role, action);
  if (!access || hidden) return new NotFoundError("Organization", options.notFoundRef ?? organizationId);
  try {
    assertAllowed(access, action);
    if (options.planFeature) requirePlanFeature(access, options.planFeature.feature, options.planFeature.what);
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  return null;
}

/**
 * Checks that the organization's plan has `feature` (e.g. `ai_assistant` for agent tokens, `webhooks`).
 * @throws ForbiddenError with `extensions.planFeature` = `feature` otherwise.
 */
export function requirePlanFeature(access: OrgAccess, feature: string, what: string): void {
  if (!access.planFeatures.includes(feature)) {
    throw new ForbiddenError(`${what} require the ${feature} feature on the organization's plan`, {
      planFeature: feature,
    });
  }
}
