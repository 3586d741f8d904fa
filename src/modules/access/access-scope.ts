/**
 * What the caller of one request can see: its memberships, roles and grants.
 * Spec: "Organization and access resources" (roles; a member limited to specific projects or services)
 * and Agent API visibility rules 2–3. Invisible resources are reported as NOT_FOUND by callers of this module.
 */
import type { Knex } from "knex";
import { type OrgAccess, type StandingColumns, standingOf } from "../../auth/access/standing.ts";
import type { Caller } from "../../auth/caller.ts";
import { memberStandingSql } from "./standing.ts";

declare module "../../reads/context.ts" {
  /** The standing compiled reads carry to the modules' declarations is the access policy's (roles, grants, features). */
  interface ReadStanding extends OrgAccess {}
}

/** Memberships, grants and plan features of one caller, loaded once per request (one SQL statement). */
export class AccessScope {
  readonly caller: Caller | null;
  private readonly knex: Knex;
  private loaded: Promise<Map<string, OrgAccess>> | null = null;
  /** What `loaded` resolved to, once it has (read synchronously by {@link settledForOrg}). */
  private settled: Map<string, OrgAccess> | null = null;
  /** The organization {@link forOrg} last found the caller a member of (see {@link actedOn}). */
  private lastFound: string | null = null;

  /** `caller` null (no credentials) sees nothing. Takes `caller.access` when set (see {@link Caller}). */
  constructor(knex: Knex, caller: Caller | null) {
    this.knex = knex;
    this.caller = caller;
    const access = caller?.access;
    if (access && caller.via !== "session" && access.organizationId === caller.organizationId) {
      this.settled = new Map([[access.organizationId, access]]);
      this.loaded = Promise.resolve(this.settled);
    }
    const memberships = caller?.memberships;
    if (memberships && caller.via === "session") {
      const kept = caller.activeOrganizationOnly
        ? memberships.filter((m) => m.organizationId === caller.organizationId)
        : memberships;
      this.settled = new Map(kept.map((m) => [m.organizationId, m]));
      this.loaded = Promise.resolve(this.settled);
    }
    if (caller) {
      caller.access = undefined;
      caller.memberships = undefined;
    }
  }

  /**
   * Every organization the caller may act on. API keys and agent tokens are limited to their bound organization, a
   * session with `activeOrganizationOnly` to its active one.
   */
  memberships(): Promise<Map<string, OrgAccess>> {
    if (!this.loaded) {
      const loading = this.load();
      this.loaded = loading;
      // Kept for synchronous reads unless invalidated meanwhile (a later load then owns `settled`).
      loading.then(
        (memberships) => {
          if (this.loaded === loading) this.settled = memberships;
        },
        () => {},
      );
    }
    return this.loaded;
  }

  /**
   * {@link memberships} when they are loaded, else undefined (then call `memberships()`): lets a subscription's
   * fan-out decide visibility from a connection's cached access without a promise per subscriber and event.
   */
  settledMemberships(): ReadonlyMap<string, OrgAccess> | undefined {
    return this.settled ?? undefined;
  }

  /**
   * {@link forOrg} when the memberships are loaded: the access, or null when the caller is not a member there;
   * undefined when they are not loaded yet (then call `forOrg`).
   */
  settledForOrg(organizationId: string): OrgAccess | null | undefined {
    return this.settled ? (this.settled.get(organizationId) ?? null) : undefined;
  }

  /** Forgets the loaded memberships (after this request changed them, e.g. by accepting an invitation). */
  invalidate(): void {
    this.loaded = null;
    this.settled = null;
  }

  /** The caller's access to `organizationId`, or null when it is not a member there (→ NOT_FOUND). */
  async forOrg(organizationId: string): Promise<OrgAccess | null> {
    const access = (await this.memberships()).get(organizationId) ?? null;
    if (access) this.lastFound = organizationId;
    return access;
  }

  /**
   * The organization whose access a service looked up last ({@link forOrg}, {@link active}) and found, since
   * {@link startAction}: the one a mutation acted on (a session acts on every organization of its user), whose audit
   * log holds its entry. Null when none was.
   */
  actedOn(): string | null {
    return this.lastFound;
  }

  /** Starts a new action (a mutation call; they run one at a time): {@link actedOn} forgets the previous one's. */
  startAction(): void {
    this.lastFound = null;
  }

  /** Access to the organization the request acts on, or null when there is none. */
  async active(): Promise<OrgAccess | null> {
    const id = this.caller?.organizationId;
    return id ? this.forOrg(id) : null;
  }

  private async load(): Promise<Map<string, OrgAccess>> {
    const out = new Map<string, OrgAccess>();
    if (!this.caller) return out;
    const onlyBound = this.caller.via !== "session" || this.caller.activeOrganizationOnly === true;
    const { rows }: { rows: Array<StandingColumns & { organizationId: string }> } = await this.knex.raw(
      `select m.organization_id as "organizationId", ${memberStandingSql("m")}
      from members m where m.user_id = ?${onlyBound ? " and m.organization_id = ?" : ""}`,
      onlyBound ? [this.caller.userId, this.caller.organizationId ?? ""] : [this.caller.userId],
    );
    for (const row of rows) {
      const access = standingOf(row.organizationId, row);
      if (access) out.set(row.organizationId, access);
    }
    return out;
  }
}
