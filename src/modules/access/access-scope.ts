/**
 * What the caller of one request can see: its memberships, roles and grants.
 * Spec: "Organization and access resources" (roles; a member limited to specific projects or services)
 * and Agent API visibility rules 2–3. Invisible resources are reported as NOT_FOUND by callers of this module.
 */
import type { Knex } from "knex";
import { grantsFromColumns, type StandingColumns, toRole } from "../../auth/caller.ts";
import type { SqlCondition } from "../../reads/index.ts";
import type { Role } from "./member.model.ts";
import { isLimitableByGrants } from "./policy.ts";
import { memberStandingSql } from "./standing.ts";

/** The authenticated principal of a request (resolved by src/auth/caller.ts). */
export interface Principal {
  userId: string;
  /** Organization the request acts on (session's active one, or the one an API key is bound to). */
  organizationId: string | null;
  via: "session" | "apiKey" | "agentToken";
  /** The better-auth session row id when `via` is "session" (switching the active organization updates it). */
  sessionId?: string;
  /** The `api_keys` row id when `via` is "apiKey". */
  apiKeyId?: string;
  /** The agent token's row id when `via` is "agentToken". */
  agentTokenId?: string;
  /**
   * True: the caller acts on `organizationId` alone — a session on its active organization, as an API key or agent
   * token always does on its bound one. Set by the transport for REST rows that do not name the organization
   * (spec: Site import rule 8: GET by id answers 404 for an import of another organization than the list's).
   */
  activeOrganizationOnly?: boolean;
  /**
   * The standing in `organizationId` loaded with the credentials (API keys: same statement as the key). The
   * first {@link AccessScope} built for the principal takes it (and clears it), so a request authenticated with
   * a key runs no membership query; later scopes of a long-lived principal (WebSocket operations, events) load
   * afresh.
   */
  access?: OrgAccess;
  /**
   * A session's every membership with its standing, loaded with the session (src/auth/session-caller.ts): taken by
   * the first {@link AccessScope} built for the principal as `access` is, so a signed-in request runs no
   * membership query either.
   */
  memberships?: OrgAccess[];
}

/**
 * A caller an instance resolved before from the same credential (API key or agent token), remembered but not trusted
 * (authentication and data in one round trip): the statement that reads for the request resolves the
 * credential again, and its answer is used only when the caller is unchanged. Built by the credential's owner
 * (src/auth for API keys, the agent module for agent tokens); used by the transport (src/server/remembered-callers.ts).
 */
export interface RememberedPrincipal {
  /**
   * The remembered entry itself: the same object for as long as the credential is remembered as it was resolved (a
   * new resolution remembers a new one), so what was compiled for this caller may be reused with it.
   */
  identity: object;
  /** A new principal of the caller as it was resolved (an {@link AccessScope} takes its `access`). */
  principal(): Principal;
  /** The read `sql` (`?` placeholders, one row) with `bindings`, wrapped so that it resolves the credential too. */
  statement(sql: string, bindings: readonly unknown[]): { sql: string; bindings: unknown[] };
  /**
   * The read's own row of a wrapped statement when it found the caller unchanged (and allowed: an agent token within
   * its rate limit); null when not — then authenticate the request the ordinary way.
   */
  confirmed(row: Record<string, unknown> | undefined): Promise<Record<string, unknown> | null>;
}

/** The caller's standing in one organization. */
export interface OrgAccess {
  organizationId: string;
  memberId: string;
  role: Role;
  /** null: unrestricted. Otherwise the member sees only these projects and applications. */
  grants: { projectIds: Set<string>; applicationIds: Set<string>; applicationProjectIds: Set<string> } | null;
  /** Features of the organization's plan (e.g. `webhooks`, `ai_assistant`), loaded with the membership. */
  planFeatures: readonly string[];
}

declare module "../../reads/context.ts" {
  /** The standing compiled reads carry to the modules' declarations is this module's (roles, grants, features). */
  interface ReadStanding extends OrgAccess {}
}

/** Memberships, grants and plan features of one principal, loaded once per request (one SQL statement). */
export class AccessScope {
  readonly principal: Principal | null;
  private readonly knex: Knex;
  private loaded: Promise<Map<string, OrgAccess>> | null = null;

  /** `principal` null (no credentials) sees nothing. Takes `principal.access` when set (see {@link Principal}). */
  constructor(knex: Knex, principal: Principal | null) {
    this.knex = knex;
    this.principal = principal;
    const access = principal?.access;
    if (access && principal.via !== "session" && access.organizationId === principal.organizationId) {
      this.loaded = Promise.resolve(new Map([[access.organizationId, access]]));
    }
    const memberships = principal?.memberships;
    if (memberships && principal.via === "session") {
      const kept = principal.activeOrganizationOnly
        ? memberships.filter((m) => m.organizationId === principal.organizationId)
        : memberships;
      this.loaded = Promise.resolve(new Map(kept.map((m) => [m.organizationId, m])));
    }
    if (principal) {
      principal.access = undefined;
      principal.memberships = undefined;
    }
  }

  /**
   * Every organization the caller may act on. API keys and agent tokens are limited to their bound organization, a
   * session with `activeOrganizationOnly` to its active one.
   */
  memberships(): Promise<Map<string, OrgAccess>> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** Forgets the loaded memberships (after this request changed them, e.g. by accepting an invitation). */
  invalidate(): void {
    this.loaded = null;
  }

  /** The caller's access to `organizationId`, or null when it is not a member there (→ NOT_FOUND). */
  async forOrg(organizationId: string): Promise<OrgAccess | null> {
    return (await this.memberships()).get(organizationId) ?? null;
  }

  /** Access to the organization the request acts on, or null when there is none. */
  async active(): Promise<OrgAccess | null> {
    const id = this.principal?.organizationId;
    return id ? this.forOrg(id) : null;
  }

  private async load(): Promise<Map<string, OrgAccess>> {
    const out = new Map<string, OrgAccess>();
    if (!this.principal) return out;
    const onlyBound = this.principal.via !== "session" || this.principal.activeOrganizationOnly === true;
    const { rows }: { rows: Array<StandingColumns & { organizationId: string }> } = await this.knex.raw(
      `select m.organization_id as "organizationId", ${memberStandingSql("m")}
      from members m where m.user_id = ?${onlyBound ? " and m.organization_id = ?" : ""}`,
      onlyBound ? [this.principal.userId, this.principal.organizationId ?? ""] : [this.principal.userId],
    );
    for (const row of rows) {
      const access = standingOf(row.organizationId, row);
      if (access) out.set(row.organizationId, access);
    }
    return out;
  }
}

/**
 * The standing of member `memberId` (role `role`) in `organizationId` from its grants, as {@link AccessScope}
 * loads it: grants limit only roles limitable by grants.
 */
export function orgAccessOf(
  organizationId: string,
  memberId: string,
  role: Role,
  planFeatures: readonly string[],
  grants: ReadonlyArray<{
    projectId: string | null;
    applicationId: string | null;
    applicationProjectId: string | null;
  }>,
): OrgAccess {
  const access: OrgAccess = { organizationId, memberId, role, grants: null, planFeatures };
  if (!isLimitableByGrants(role)) return access;
  for (const g of grants) {
    if (!g.projectId && !g.applicationId) continue;
    access.grants ??= { projectIds: new Set(), applicationIds: new Set(), applicationProjectIds: new Set() };
    if (g.projectId) access.grants.projectIds.add(g.projectId);
    if (g.applicationId) access.grants.applicationIds.add(g.applicationId);
    if (g.applicationProjectId) access.grants.applicationProjectIds.add(g.applicationProjectId);
  }
  return access;
}

/** The standing in `organizationId` of a row read with `memberStandingSql`; undefined for an unknown role. */
export function standingOf(organizationId: string, row: StandingColumns): OrgAccess | undefined {
  const role = toRole(row.role);
  return role
    ? orgAccessOf(organizationId, row.memberId, role, row.planFeatures, grantsFromColumns(row.grants))
    : undefined;
}

/**
 * The condition "this project is visible" over columns `organizationColumn` and `projectColumn`, for every
 * organization in `orgs` (members limited by grants see their granted projects and the projects of their granted
 * applications). No organization: `false`. Visibility stays inside the SQL.
 */
export function visibleProjectSql(
  orgs: ReadonlyMap<string, OrgAccess>,
  organizationColumn: string,
  projectColumn: string,
): SqlCondition {
  const parts: string[] = [];
  const bindings: Knex.Value[] = [];
  for (const access of orgs.values()) {
    const g = access.grants;
    if (!g) {
      parts.push(`${organizationColumn} = ?`);
      bindings.push(access.organizationId);
    } else {
      parts.push(`(${organizationColumn} = ? and ${projectColumn} = any(?::text[]))`);
      bindings.push(access.organizationId, [...g.projectIds, ...g.applicationProjectIds]);
    }
  }
  return { sql: parts.length ? `(${parts.join(" or ")})` : "false", bindings };
}

/**
 * The condition "this application is visible" over `alias`.organization_id / project_id / id (its project granted,
 * or the application itself), for every organization in `orgs`. No organization: `false`.
 */
export function visibleApplicationSql(orgs: ReadonlyMap<string, OrgAccess>, alias: string): SqlCondition {
  const parts: string[] = [];
  const bindings: Knex.Value[] = [];
  for (const access of orgs.values()) {
    const g = access.grants;
    if (!g) {
      parts.push(`${alias}.organization_id = ?`);
      bindings.push(access.organizationId);
    } else {
      parts.push(
        `(${alias}.organization_id = ? and (${alias}.project_id = any(?::text[]) or ${alias}.id = any(?::text[])))`,
      );
      bindings.push(access.organizationId, [...g.projectIds], [...g.applicationIds]);
    }
  }
  return { sql: parts.length ? `(${parts.join(" or ")})` : "false", bindings };
}
