/**
 * A member's standing — role, the plan's features, grants — as one SQL select list, the only implementation of
 * that read: API keys (src/auth/credentials/api-key.ts, given it by the transport), agent tokens (agent module) and sessions
 * (`AccessScope`) all select it. The plan's features and a granted application's project belong to the
 * organizations and applications modules: their owners hand that SQL in ({@link useStandingSources}, called by
 * src/modules/index.ts), so this module names only its own tables.
 */
import type { StandingJoin, UserMembershipsSql } from "../../auth/credentials/credential.ts";

/** SQL the owners of plans and applications give for the standing (each returns an SQL expression). */
export interface StandingSources {
  /** The `text[]` features of the plan of organization `organizationIdSql` (an SQL expression). */
  planFeatures(organizationIdSql: string): string;
  /** The project id of application `applicationIdSql` (an SQL expression; NULL when there is none). */
  applicationProjectId(applicationIdSql: string): string;
  /** The environment id of application `applicationIdSql` (an SQL expression; NULL when there is none). */
  applicationEnvironmentId(applicationIdSql: string): string;
}

let sources: StandingSources | null = null;

/** Registers the owners' SQL (once, at start: src/modules/index.ts). */
export function useStandingSources(given: StandingSources): void {
  sources = given;
}

/**
 * The select list of the standing of member row `member` (an alias of `members`): the `StandingColumns` of
 * src/auth/access/standing.ts, read by its `standingOf`.
 * @throws Error when no sources are registered (src/modules/index.ts not loaded).
 */
export function memberStandingSql(member: string): string {
  if (!sources) throw new Error("The standing's sources are not registered: load src/modules/index.ts first");
  return `${memberVersionSql(member)}, ${member}.limited_to_grants as "limitedToGrants",
    ${sources.planFeatures(`${member}.organization_id`)} as "planFeatures",
    coalesce((select json_agg(json_build_array(g.project_id, g.application_id,
        ${sources.applicationProjectId("g.application_id")},
        ${sources.applicationEnvironmentId("g.application_id")}))
      from member_grants g where g.member_id = ${member}.id), '[]'::json) as "grants"`;
}

/**
 * The select list of the member row `member` alone: `"memberId"`, `role` and `"standingVersion"` (text), which stand
 * for its whole standing — `standing_version` grows with every change to what {@link memberStandingSql} reads
 * beyond the row (grants, a granted application's project, the plan and its features; migration
 * 20261126100000_member_standing_versions).
 */
function memberVersionSql(member: string): string {
  return `${member}.id as "memberId", ${member}.role as "role", ${member}.standing_version::text as "standingVersion"`;
}

/**
 * A join (`join lateral (…) <alias> on true`) giving the `StandingColumns` of the member row that
 * `condition` (SQL over the member alias it is given) selects — or, with `columns` `"version"`, only its id, role
 * and standing version (what confirms a remembered caller: one index lookup instead of the plan and the grants).
 * No row, no join: callers whose membership is gone find nothing. For statements outside this module that resolve
 * a caller (API keys, agent tokens).
 */
export const memberStandingJoinSql: StandingJoin = (alias, condition, columns = "standing") => {
  const list = columns === "version" ? memberVersionSql("m") : memberStandingSql("m");
  return `join lateral (select ${list} from members m where ${condition("m")} limit 1) ${alias} on true`;
};

/**
 * A user's memberships for sessions and user JWTs (src/auth/credentials/session.ts, which is below the modules): the fingerprint of the
 * user's member rows (id, organization, role, standing version: see {@link memberVersionSql}) and their standings as
 * a `json` array of `{ organizationId, …StandingColumns }`, the active organization's first, then oldest first.
 */
export const userMembershipsSql: UserMembershipsSql = {
  fingerprint: (userId) => `(select string_agg(row(m.id, m.organization_id, m.role, m.standing_version)::text, ','
      order by m.id) from members m where m.user_id = ${userId})`,
  standings: (userId, activeOrganization) => `coalesce((select json_agg(x.standing
      order by x.active desc, x.created_at, x.id) from (
    select m.id, m.created_at, m.organization_id is not distinct from ${activeOrganization} as active,
      (select to_json(t) from (select m.organization_id as "organizationId", ${memberStandingSql("m")}) t) as standing
    from members m where m.user_id = ${userId}) x), '[]'::json)`,
};
