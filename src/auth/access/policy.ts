/**
 * The access policy: what a caller may do, in one place (spec: "Organization and access resources", Role table;
 * Agent API visibility rules 2–3). Resolvers, REST routes and services ask {@link can} / {@link assertCan} with the
 * caller's standing in the target's organization; they never compare roles themselves. Visibility comes first: a
 * caller who cannot see a resource gets NOT_FOUND (another organization's data answers as nonexistent data) from
 * the reads before any of these checks runs, so FORBIDDEN only ever concerns resources the caller sees. The SQL form
 * of the visibility rules ("project:see", "application:see") is {@link visibleProjectSql} /
 * {@link visibleApplicationSql}: the same condition, for the compiled reads and the services' queries.
 *
 * | role   | may                                                                                               |
 * |--------|---------------------------------------------------------------------------------------------------|
 * | owner  | everything, including billing (plan) and ownership transfer; cannot be removed, demoted or leave |
 * | admin  | projects, applications, databases, team (members, invitations, grants, others' keys); leave       |
 * | member | view (limited by grants when it has any) and deploy applications; own API keys; leave             |
 */
import type { Knex } from "knex";
import type { SqlCondition } from "../../reads/index.ts";
import { ForbiddenError, NotFoundError } from "../../shared/errors.ts";
import type { Caller } from "../caller.ts";
import type { OrgAccess, Role } from "./standing.ts";

/** Actions a role allows (the table below). */
export type Action =
  | "project:create"
  | "project:update"
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
  | "cluster:read"
  | "organization:export"
  | "organization:import"
  | "organization:leave";

const allowed: Record<Action, readonly Role[]> = {
  "project:create": ["owner", "admin"],
  "project:update": ["owner", "admin"],
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
  // The outcome of the organization's last reconcile (`Organization.clusterSync`): its messages name every
  // application's objects, granted or not (members read null).
  "cluster:read": ["owner", "admin"],
  // The organization bundle (docs/organization-transfer.md): every setting and, encrypted, every secret.
  "organization:export": ["owner"],
  // Planning an organization bundle's import into the organization.
  "organization:import": ["owner"],
  // Leaving an organization: everyone but the owner, who transfers ownership first.
  "organization:leave": ["admin", "member"],
};

/**
 * Checks whose answer depends on a target besides the caller's role, with the target each takes:
 * - `project:see` / `application:see`: the caller's grants include the project (or an application of it) / the
 *   application or its project;
 * - `member:manage`: changing the role of, or removing, a member whose role is `role` (`team:manage`, and the owner
 *   is never changed this way: spec, the owner cannot be removed or demoted except by transferring ownership);
 * - `apiKey:delete`: one's own keys always (`own`); others' keys with `apiKey:manage-others`, except the owner's keys
 *   for a non-owner (`creatorRole`; null: the creator left);
 * - `plan:feature`: the organization's plan has `feature` (`what` names what needs it in the refusal).
 */
export interface Targets {
  "project:see": { projectId: string };
  "application:see": { id: string; projectId: string };
  "member:manage": { role: Role };
  "apiKey:delete": { own: boolean; creatorRole: Role | null };
  "plan:feature": { feature: string; what: string };
}

/** Everything {@link can} answers: a role's action, or a check against a target ({@link Targets}). */
export type Check = Action | keyof Targets;

/** The target a check takes: none for a role's action, else its {@link Targets} entry. */
type TargetOf<C extends Check> = C extends keyof Targets ? [target: Targets[C]] : [];

/**
 * Why `access` may not do `check` (to `target`), as the error {@link assertCan} throws; null when it may.
 * ForbiddenError messages: the role's ("Your role (member) does not allow team:manage"), the owner's protection,
 * the plan's (with `extensions.planFeature`). An invisible target ("project:see", "application:see") is a
 * NotFoundError of the project or application.
 */
function refusalOf(access: OrgAccess, check: Check, target?: Targets[keyof Targets]): Error | null {
  switch (check) {
    case "project:see": {
      const { projectId } = target as Targets["project:see"];
      const g = access.grants;
      return !g || g.projectIds.has(projectId) || g.applicationProjectIds.has(projectId)
        ? null
        : new NotFoundError("Project", projectId);
    }
    case "application:see": {
      const app = target as Targets["application:see"];
      const g = access.grants;
      return !g || g.projectIds.has(app.projectId) || g.applicationIds.has(app.id)
        ? null
        : new NotFoundError("Application", app.id);
    }
    case "member:manage": {
      const refused = refusalOf(access, "team:manage");
      if (refused || (target as Targets["member:manage"]).role !== "owner") return refused;
      return new ForbiddenError("The owner cannot be removed or demoted; the owner can transfer ownership instead");
    }
    case "apiKey:delete": {
      const { own, creatorRole } = target as Targets["apiKey:delete"];
      if (own) return null;
      const refused = refusalOf(access, "apiKey:manage-others");
      if (refused || creatorRole !== "owner" || access.role === "owner") return refused;
      return new ForbiddenError("Only the owner can delete the owner's API keys");
    }
    case "plan:feature": {
      const { feature, what } = target as Targets["plan:feature"];
      if (access.planFeatures.includes(feature)) return null;
      return new ForbiddenError(`${what} require the ${feature} feature on the organization's plan`, {
        planFeature: feature,
      });
    }
    case "organization:leave":
      return access.role === "owner"
        ? new ForbiddenError("The owner cannot leave the organization: transfer ownership to another member first")
        : null;
    default:
      return allowed[check].includes(access.role)
        ? null
        : new ForbiddenError(`Your role (${access.role}) does not allow ${check}`);
  }
}

/** True when the caller whose standing in the target's organization is `access` may do `check` (to `target`). */
export function can<C extends Check>(access: OrgAccess, check: C, ...target: TargetOf<C>): boolean {
  return refusalOf(access, check, target[0]) === null;
}

/**
 * Checks that the caller whose standing in the target's organization is `access` may do `check` (to `target`).
 * @throws ForbiddenError when its role, the owner's protection or the plan does not allow it; NotFoundError when
 * the target is invisible to it ("project:see", "application:see").
 */
export function assertCan<C extends Check>(access: OrgAccess, check: C, ...target: TargetOf<C>): void {
  const refused = refusalOf(access, check, target[0]);
  if (refused) throw refused;
}

/** Options of {@link refusal}. */
export interface RefusalOptions {
  /**
   * Roles to which the organization is invisible for this action: a caller with one of them whose role does not
   * allow `action` gets NotFoundError (as a non-member would), not ForbiddenError — e.g. `["member"]` for
   * webhooks and docs theming, where a member reads nothing.
   */
  hideFromRoles?: readonly Role[];
  /** How the 404 names the organization (default `organizationId`; e.g. the integer id the caller gave). */
  notFoundRef?: string;
  /** A plan feature the action needs besides the role ({@link Targets} `plan:feature`). */
  planFeature?: Targets["plan:feature"];
}

/**
 * The organization gate as one answer, for a caller whose standing in `organizationId` is `access` (null: not a
 * member): NotFoundError when the organization is invisible to it (not a member, or its role is in
 * `options.hideFromRoles` and does not allow `action`), else what {@link assertCan} throws for `action` and then for
 * `options.planFeature`; null when it passes. Synchronous, for compiled reads that decide the gate per organization
 * inside their SQL.
 */
export function refusal(
  access: OrgAccess | null,
  action: Action,
  organizationId: string,
  options: RefusalOptions = {},
): Error | null {
  const hidden = access !== null && options.hideFromRoles?.includes(access.role) && !can(access, action);
  if (!access || hidden) return new NotFoundError("Organization", options.notFoundRef ?? organizationId);
  return (
    refusalOf(access, action) ?? (options.planFeature ? refusalOf(access, "plan:feature", options.planFeature) : null)
  );
}

/** Roles an invitation or a role change may give: the owner role passes only by transferring ownership. */
const ASSIGNABLE_ROLES: readonly Role[] = ["admin", "member"];

/** True when `role` may be given by an invitation or a role change. */
export function isAssignableRole(role: Role): boolean {
  return ASSIGNABLE_ROLES.includes(role);
}

/** Why each account-level action needs a signed-in person rather than an API key. */
const SESSION_ONLY = {
  "organization:create": "API keys act inside their own organization only",
  "invitation:accept": "API keys act inside their own organization only",
  // Spec (Authentication, rules 1 and 4): keys are made under Account → API Keys, and deleting one ends its access —
  // which a key that had made others would outlive.
  "apiKey:create": "an API key cannot make API keys (deleting it would leave the ones it made working)",
  // Spec (Agent API, rule 1): agent tokens are made under Settings → AI; one made by a key would outlive the key.
  "agentToken:create": "an API key cannot make agent tokens (deleting it would leave the token working)",
} as const;

/** Account-level actions that need a signed-in person rather than an API key bound to one organization. */
export type SessionAction = keyof typeof SESSION_ONLY;

/**
 * Checks that `caller` is signed in (a session or user JWT): an API key or an agent token cannot create
 * organizations, join them, or create API keys or agent tokens.
 * @throws ForbiddenError otherwise.
 */
export function assertSignedIn(caller: Caller, action: SessionAction): void {
  if (caller.via !== "session") {
    throw new ForbiddenError(`${action} needs a signed-in session: ${SESSION_ONLY[action]}`);
  }
}

/** The grants of a member limited by them (see {@link OrgAccess}). */
type Grants = NonNullable<OrgAccess["grants"]>;

/**
 * `(… or …)` over every organization in `orgs`: the rows of `organizationColumn` = the organization, within it only
 * those `limited(grants)` admits for a member limited by grants. No organization: `false`.
 */
function perOrganization(
  orgs: ReadonlyMap<string, OrgAccess>,
  organizationColumn: string,
  limited: (grants: Grants) => SqlCondition,
): SqlCondition {
  const parts: string[] = [];
  const bindings: Knex.Value[] = [];
  for (const access of orgs.values()) {
    const within = access.grants ? limited(access.grants) : null;
    parts.push(within ? `(${organizationColumn} = ? and ${within.sql})` : `${organizationColumn} = ?`);
    bindings.push(access.organizationId, ...(within?.bindings ?? []));
  }
  return { sql: parts.length ? `(${parts.join(" or ")})` : "false", bindings };
}

/**
 * The SQL form of "project:see": the condition "this project is visible" over columns `organizationColumn` and
 * `projectColumn`, for every organization in `orgs` (members limited by grants see their granted projects and the
 * projects of their granted applications). No organization: `false`.
 */
export function visibleProjectSql(
  orgs: ReadonlyMap<string, OrgAccess>,
  organizationColumn: string,
  projectColumn: string,
): SqlCondition {
  return perOrganization(orgs, organizationColumn, (g) => ({
    sql: `${projectColumn} = any(?::text[])`,
    bindings: [[...g.projectIds, ...g.applicationProjectIds]],
  }));
}

/**
 * The condition "this row of a project's own service is visible" — a database, a payment gateway service, a site
 * import record — over `organizationColumn` / `projectColumn` (and `applicationColumn`, the application the row
 * belongs to, when it has one), for every organization in `orgs`. A member limited by grants sees such a row when
 * its project is granted, or its application is; a project seen only as the container of a granted application
 * shows that application, not the project's other services ("a member sees only the projects and services granted
 * to them"). No organization: `false`.
 */
export function visibleServiceSql(
  orgs: ReadonlyMap<string, OrgAccess>,
  organizationColumn: string,
  projectColumn: string,
  applicationColumn?: string,
): SqlCondition {
  return perOrganization(orgs, organizationColumn, (g) =>
    applicationColumn
      ? {
          sql: `(${projectColumn} = any(?::text[]) or ${applicationColumn} = any(?::text[]))`,
          bindings: [[...g.projectIds], [...g.applicationIds]],
        }
      : { sql: `${projectColumn} = any(?::text[])`, bindings: [[...g.projectIds]] },
  );
}

/**
 * The SQL form of "application:see": the condition "this application is visible" over `alias`.organization_id /
 * project_id / id (its project granted, or the application itself), for every organization in `orgs`. No
 * organization: `false`.
 */
export function visibleApplicationSql(orgs: ReadonlyMap<string, OrgAccess>, alias: string): SqlCondition {
  return visibleServiceSql(orgs, `${alias}.organization_id`, `${alias}.project_id`, `${alias}.id`);
}
