/**
 * What the caller of one request can see: its memberships, roles and grants.
 * Spec: "Organization and access resources" (roles; a member limited to specific projects or services)
 * and Agent API visibility rules 2–3. Invisible resources are reported as NOT_FOUND by callers of this module.
 */
import type { Knex } from "knex";
import type { Role } from "../team/member.model.ts";
import { isLimitableByGrants } from "./policy.ts";

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

/** Memberships, grants and plan features of one principal, loaded once per request (one SQL statement). */
export class AccessScope {
  readonly principal: Principal | null;
  private readonly knex: Knex;
  private loaded: Promise<Map<string, OrgAccess>> | null = null;

  /** `principal` null (no credentials) sees nothing. */
  constructor(knex: Knex, principal: Principal | null) {
    this.knex = knex;
    this.principal = principal;
  }

  /** Every organization the caller may act on. API keys and agent tokens are limited to their bound organization. */
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
    const q = this.knex("members as m")
      .leftJoin("member_grants as g", "g.member_id", "m.id")
      .leftJoin("applications as a", "a.id", "g.application_id")
      .join("organizations as o", "o.id", "m.organization_id")
      .join("plans as p", "p.id", "o.plan_id")
      .where("m.user_id", this.principal.userId)
      .select(
        "m.id as memberId",
        "m.organizationId",
        "m.role",
        "g.projectId",
        "g.applicationId",
        "a.projectId as appProjectId",
        "p.features as planFeatures",
      );
    if (this.principal.via !== "session") q.where("m.organization_id", this.principal.organizationId ?? "");
    const rows: Array<{
      memberId: string;
      organizationId: string;
      role: Role;
      projectId: string | null;
      applicationId: string | null;
      appProjectId: string | null;
      planFeatures: string[];
    }> = await q;
    for (const r of rows) {
      let access = out.get(r.organizationId);
      if (!access) {
        access = {
          organizationId: r.organizationId,
          memberId: r.memberId,
          role: r.role,
          grants: null,
          planFeatures: r.planFeatures,
        };
        out.set(r.organizationId, access);
      }
      if (!isLimitableByGrants(r.role) || (!r.projectId && !r.applicationId)) continue;
      access.grants ??= { projectIds: new Set(), applicationIds: new Set(), applicationProjectIds: new Set() };
      if (r.projectId) access.grants.projectIds.add(r.projectId);
      if (r.applicationId) access.grants.applicationIds.add(r.applicationId);
      if (r.appProjectId) access.grants.applicationProjectIds.add(r.appProjectId);
    }
    return out;
  }
}

/** True when `access` may see project `projectId` (granted, or holding a granted application). */
export function canSeeProject(access: OrgAccess, projectId: string): boolean {
  const g = access.grants;
  return !g || g.projectIds.has(projectId) || g.applicationProjectIds.has(projectId);
}

/** True when `access` may see application `app` (its project granted, or the application itself). */
export function canSeeApplication(access: OrgAccess, app: { id: string; projectId: string }): boolean {
  const g = access.grants;
  return !g || g.projectIds.has(app.projectId) || g.applicationIds.has(app.id);
}
