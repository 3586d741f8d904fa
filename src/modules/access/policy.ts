/**
 * The one place that decides what a role may do (spec: "Organization and access resources", Role table).
 * Resolvers, REST routes and services ask {@link assertAllowed} (and the helpers below); they never compare roles
 * themselves. Visibility comes first and is not decided here: a caller who cannot see a resource gets NOT_FOUND
 * from the loaders before any of these checks runs, so FORBIDDEN only ever concerns resources the caller sees.
 *
 * | role   | may                                                                                   |
 * |--------|---------------------------------------------------------------------------------------|
 * | owner  | everything, including billing (plan) and ownership transfer; cannot be removed/demoted |
 * | admin  | projects, applications, databases, team (members, invitations, grants, others' keys)  |
 * | member | view (limited by grants when it has any) and deploy applications; own API keys          |
 */
import { ForbiddenError } from "../../shared/errors.ts";
import type { OrgAccess, Principal } from "./access-scope.ts";
import type { Role } from "./member.model.ts";

/** Actions that need more than visibility. */
export type Action =
  | "project:create"
  | "project:delete"
  | "application:manage"
  | "application:deploy"
  | "database:manage"
  | "environment:manage"
  | "import:run"
  | "provider:manage"
  | "team:manage"
  | "invitation:read-link"
  | "apiKey:manage-others"
  | "notification:manage"
  | "billing:manage"
  | "ownership:transfer"
  | "organization:update"
  | "webhook:manage"
  | "payment:manage"
  | "docs:manage"
  | "audit:read"
  | "organization:export"
  | "organization:import";

const allowed: Record<Action, readonly Role[]> = {
  "project:create": ["owner", "admin"],
  "project:delete": ["owner", "admin"],
  "application:manage": ["owner", "admin"],
  "application:deploy": ["owner", "admin", "member"],
  "database:manage": ["owner", "admin"],
  // Creating, renaming and deleting a project's environments (spec: admins "manage projects").
  "environment:manage": ["owner", "admin"],
  "import:run": ["owner", "admin"],
  // Git providers, container registries and SSH keys (prerequisites of imports).
  "provider:manage": ["owner", "admin"],
  "team:manage": ["owner", "admin"],
  "invitation:read-link": ["owner", "admin"],
  "apiKey:manage-others": ["owner", "admin"],
  "notification:manage": ["owner", "admin"],
  "billing:manage": ["owner"],
  "ownership:transfer": ["owner"],
  "organization:update": ["owner", "admin"],
  // Webhook endpoints, their delivery log and event ingestion (members get NOT_FOUND for the organization).
  "webhook:manage": ["owner", "admin"],
  // Payment gateway services: create, update, delete, method toggles, reading the signing key.
  "payment:manage": ["owner", "admin"],
  // The docs theme and docs hostname (spec "Docs-domain lookup and theme"; members get NOT_FOUND for the organization).
  "docs:manage": ["owner", "admin"],
  // The organization's audit log (GraphQL `auditEvents`, `/api/audit-events`, its export; members get FORBIDDEN).
  "audit:read": ["owner", "admin"],
  // The organization bundle (docs/organization-transfer.md): every setting and, encrypted, every secret.
  "organization:export": ["owner"],
  // Planning an organization bundle's import into the organization.
  "organization:import": ["owner"],
};

/** True when `role` may perform `action`. */
export function isAllowed(role: Role, action: Action): boolean {
  return allowed[action].includes(role);
}

/** @throws ForbiddenError when the caller's role in that organization does not allow `action`. */
export function assertAllowed(access: OrgAccess, action: Action): void {
  if (!isAllowed(access.role, action)) {
    throw new ForbiddenError(`Your role (${access.role}) does not allow ${action}`);
  }
}

/** Whether grants limit a member of role `role`: only `member`s are limited; owners and admins see everything. */
export function isLimitableByGrants(role: Role): boolean {
  return role === "member";
}

/** Roles an invitation or a role change may give: the owner role passes only by {@link assertCanTransferTo}. */
export const ASSIGNABLE_ROLES: readonly Role[] = ["admin", "member"];

/** True when `role` may be given by an invitation or a role change. */
export function isAssignableRole(role: Role): boolean {
  return ASSIGNABLE_ROLES.includes(role);
}

/**
 * Checks that the caller may change the role of, or remove, a member whose current role is `targetRole`:
 * it needs `team:manage`, and the owner is never changed this way (spec: the owner cannot be removed or demoted
 * except by transferring ownership).
 * @throws ForbiddenError otherwise.
 */
export function assertCanManageMember(access: OrgAccess, targetRole: Role): void {
  assertAllowed(access, "team:manage");
  if (targetRole === "owner") {
    throw new ForbiddenError("The owner cannot be removed or demoted; the owner can transfer ownership instead");
  }
}

/**
 * Checks that the caller may delete an API key created by a member whose role is `creatorRole` (null: the
 * creator left): one's own keys always; others' keys with `apiKey:manage-others`, except the owner's keys for a
 * non-owner (the owner is not managed by admins).
 * @throws ForbiddenError otherwise.
 */
export function assertCanDeleteApiKey(access: OrgAccess, own: boolean, creatorRole: Role | null): void {
  if (own) return;
  assertAllowed(access, "apiKey:manage-others");
  if (creatorRole === "owner" && access.role !== "owner") {
    throw new ForbiddenError("Only the owner can delete the owner's API keys");
  }
}

/** Whether the caller sees every API key of the organization (else only its own). */
export function seesAllApiKeys(access: OrgAccess): boolean {
  return isAllowed(access.role, "apiKey:manage-others");
}

/** Account-level actions that need a signed-in person rather than an API key bound to one organization. */
export type SessionAction = "organization:create" | "invitation:accept";

/**
 * Checks that `principal` is a signed-in session: an API key (bound to one organization) or an agent token
 * cannot create organizations or join them.
 * @throws ForbiddenError otherwise.
 */
export function assertSessionPrincipal(principal: Principal, action: SessionAction): void {
  if (principal.via !== "session") {
    throw new ForbiddenError(`${action} needs a signed-in session; API keys act inside their own organization only`);
  }
}
