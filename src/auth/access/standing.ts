/**
 * A caller's standing in one organization — role, grants, the plan's features — as the credential statements read
 * it and as the access policy judges it. Spec: "Organization and access resources" (Role table; a member limited
 * to specific projects or services).
 */

/** A role of a member in an organization (spec: Role table). */
export type Role = "owner" | "admin" | "member";

/** Highest of the roles stored in `members.role` (better-auth allows a comma-separated list); null for none. */
export function toRole(stored: string | null | undefined): Role | null {
  const roles = (stored ?? "").split(",").map((r) => r.trim());
  return (["owner", "admin", "member"] as const).find((r) => roles.includes(r)) ?? null;
}

/** Whether grants limit a member of role `role`: only `member`s are limited; owners and admins see everything. */
export function isLimitableByGrants(role: Role): boolean {
  return role === "member";
}

/** The caller's standing in one organization. */
export interface OrgAccess {
  organizationId: string;
  memberId: string;
  role: Role;
  /** null: unrestricted. Otherwise the member sees only these projects and applications. */
  grants: {
    projectIds: Set<string>;
    applicationIds: Set<string>;
    /** The projects of the granted applications (visible as their containers). */
    applicationProjectIds: Set<string>;
    /** The environments of the granted applications (the only environments of such a project visible). */
    applicationEnvironmentIds: Set<string>;
  } | null;
  /** Features of the organization's plan (e.g. `webhooks`, `ai_assistant`), loaded with the membership. */
  planFeatures: readonly string[];
}

/**
 * The columns a member's standing is read as (the access module's `memberStandingSql`): the member's id and stored
 * role, its standing version, the plan's features, its grants.
 */
export interface StandingColumns {
  memberId: string;
  role: string;
  /** `members.standing_version` as text: grows with every change to the standing beyond the member row. */
  standingVersion: string;
  /** `members.limited_to_grants`: grants limit the member even when none is left (their targets were deleted). */
  limitedToGrants: boolean;
  planFeatures: string[];
  /** [projectId, applicationId, applicationProjectId, applicationEnvironmentId] tuples. */
  grants: Array<[string | null, string | null, string | null, string | null]>;
}

/** One grant of a member (`member_grants`): a project, or an application with its project. */
interface Grant {
  projectId: string | null;
  applicationId: string | null;
  /** The granted application's project (null for a project grant). */
  applicationProjectId: string | null;
  /** The granted application's environment (null for a project grant). */
  applicationEnvironmentId: string | null;
}

/**
 * The standing of member `memberId` (role `role`) in `organizationId` from its grants: grants limit only roles
 * limitable by grants ({@link isLimitableByGrants}); a member `limited` to its grants sees only them, none when
 * none is left (what it was granted was deleted).
 */
function orgAccessOf(
  organizationId: string,
  memberId: string,
  role: Role,
  planFeatures: readonly string[],
  grants: readonly Grant[],
  limited: boolean,
): OrgAccess {
  const access: OrgAccess = { organizationId, memberId, role, grants: null, planFeatures };
  if (!isLimitableByGrants(role)) return access;
  const limit = () => ({
    projectIds: new Set<string>(),
    applicationIds: new Set<string>(),
    applicationProjectIds: new Set<string>(),
    applicationEnvironmentIds: new Set<string>(),
  });
  if (limited) access.grants = limit();
  for (const g of grants) {
    if (!g.projectId && !g.applicationId) continue;
    access.grants ??= limit();
    if (g.projectId) access.grants.projectIds.add(g.projectId);
    if (g.applicationId) access.grants.applicationIds.add(g.applicationId);
    if (g.applicationProjectId) access.grants.applicationProjectIds.add(g.applicationProjectId);
    if (g.applicationEnvironmentId) access.grants.applicationEnvironmentIds.add(g.applicationEnvironmentId);
  }
  return access;
}

/** Most distinct plan feature lists kept in {@link sharedFeatures}. */
const SHARED_FEATURE_LISTS = 100;

/**
 * Plan feature lists by their comma-joined text, each frozen and kept once: a plan's list is the same for every
 * member, and each connection's cached standing then holds the one list instead of its own copy.
 */
const sharedFeatures = new Map<string, readonly string[]>();

/** The frozen shared copy of `features` (see {@link sharedFeatures}). */
function sharedFeatureList(features: readonly string[]): readonly string[] {
  const key = features.join(",");
  let shared = sharedFeatures.get(key);
  if (!shared) {
    shared = Object.freeze([...features]);
    if (sharedFeatures.size >= SHARED_FEATURE_LISTS) sharedFeatures.delete(sharedFeatures.keys().next().value!);
    sharedFeatures.set(key, shared);
  }
  return shared;
}

/** The standing in `organizationId` of a row read as {@link StandingColumns}; undefined for an unknown role. */
export function standingOf(organizationId: string, row: StandingColumns): OrgAccess | undefined {
  const role = toRole(row.role);
  if (!role) return undefined;
  const grants = row.grants.map(([projectId, applicationId, applicationProjectId, applicationEnvironmentId]) => ({
    projectId,
    applicationId,
    applicationProjectId,
    applicationEnvironmentId: applicationEnvironmentId ?? null,
  }));
  return orgAccessOf(
    organizationId,
    row.memberId,
    role,
    sharedFeatureList(row.planFeatures),
    grants,
    row.limitedToGrants === true,
  );
}
