/**
 * The access policy (src/auth/access/policy.ts; spec: Organization and access resources, Role table): `can` and
 * `assertCan` answer the same, `assertCan` throws what the transport answers (FORBIDDEN with the role's or the
 * plan's message, NOT_FOUND for an invisible target), and the SQL visibility condition admits what "project:see"
 * admits. Pure: no database.
 */
import { describe, expect, it } from "vitest";
import { assertCan, can, refusal, visibleProjectSql } from "../../src/auth/access/policy.ts";
import { type OrgAccess, type Role, standingOf } from "../../src/auth/access/standing.ts";

/**
 * A standing of `role` in org_1, with the plan's `features` and, for a member, grants to prj_1 and app_2 (of
 * prj_2, environment env_2); `limited` (default: with grants) as `members.limited_to_grants`.
 */
function access(role: Role, features: string[] = [], grants = true, limited = grants): OrgAccess {
  return standingOf("org_1", {
    memberId: "mem_1",
    role,
    standingVersion: "1",
    limitedToGrants: limited,
    planFeatures: features,
    grants: grants
      ? [
          ["prj_1", null, null, null],
          [null, "app_2", "prj_2", "env_2"],
        ]
      : [],
  })!;
}

/** The error code `run` throws, or null when it passes. */
function codeOf(run: () => void): unknown {
  try {
    run();
    return null;
  } catch (error) {
    return (error as { extensions?: { code?: unknown } }).extensions?.code;
  }
}

describe("can / assertCan", () => {
  it("follows the role table", () => {
    expect(can(access("owner"), "billing:manage")).toBe(true);
    expect(can(access("admin"), "billing:manage")).toBe(false);
    expect(can(access("member"), "application:deploy")).toBe(true);
    expect(() => assertCan(access("member"), "team:manage")).toThrow("Your role (member) does not allow team:manage");
    expect(codeOf(() => assertCan(access("member"), "team:manage"))).toBe("FORBIDDEN");
  });

  it("sees granted projects and applications only, answering NOT_FOUND for the rest", () => {
    const member = access("member");
    expect(can(member, "project:see", { projectId: "prj_1" })).toBe(true);
    expect(can(member, "project:see", { projectId: "prj_2" })).toBe(true);
    expect(can(member, "project:see", { projectId: "prj_3" })).toBe(false);
    expect(can(member, "application:see", { id: "app_2", projectId: "prj_2" })).toBe(true);
    expect(can(member, "application:see", { id: "app_3", projectId: "prj_2" })).toBe(false);
    expect(codeOf(() => assertCan(member, "project:see", { projectId: "prj_3" }))).toBe("NOT_FOUND");
    expect(can(access("admin"), "project:see", { projectId: "prj_3" })).toBe(true);
  });

  it("a member limited to grants of which none is left sees nothing; one never limited sees everything", () => {
    const emptied = access("member", [], false, true);
    expect(can(emptied, "project:see", { projectId: "prj_1" })).toBe(false);
    expect(can(emptied, "application:see", { id: "app_2", projectId: "prj_2" })).toBe(false);
    const unlimited = access("member", [], false, false);
    expect(can(unlimited, "project:see", { projectId: "prj_3" })).toBe(true);
    // Owners and admins are never limited, whatever the row says.
    expect(can(access("admin", [], false, true), "project:see", { projectId: "prj_3" })).toBe(true);
  });

  it("protects the owner from being managed and the owner's keys from non-owners", () => {
    expect(can(access("admin"), "member:manage", { role: "member" })).toBe(true);
    expect(() => assertCan(access("admin"), "member:manage", { role: "owner" })).toThrow(/owner cannot be removed/);
    expect(can(access("member"), "apiKey:delete", { own: true, creatorRole: "member" })).toBe(true);
    expect(can(access("member"), "apiKey:delete", { own: false, creatorRole: "member" })).toBe(false);
    expect(() => assertCan(access("admin"), "apiKey:delete", { own: false, creatorRole: "owner" })).toThrow(
      "Only the owner can delete the owner's API keys",
    );
    expect(can(access("owner"), "apiKey:delete", { own: false, creatorRole: "owner" })).toBe(true);
  });

  it("names the missing plan feature", () => {
    const target = { feature: "ai_assistant", what: "Agent tokens" };
    expect(can(access("owner", ["ai_assistant"]), "plan:feature", target)).toBe(true);
    try {
      assertCan(access("owner"), "plan:feature", target);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toBe("Agent tokens require the ai_assistant feature on the organization's plan");
      expect((error as { extensions: Record<string, unknown> }).extensions).toMatchObject({
        code: "FORBIDDEN",
        planFeature: "ai_assistant",
      });
    }
  });

  it("refuses a non-member's organization as NOT_FOUND, and hides it from the roles named", () => {
    const codeOfRefusal = (error: Error | null) =>
      (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
    expect(codeOfRefusal(refusal(null, "webhook:manage", "org_1"))).toBe("NOT_FOUND");
    const hidden = refusal(access("member"), "webhook:manage", "org_1", { hideFromRoles: ["member"] });
    expect(codeOfRefusal(hidden)).toBe("NOT_FOUND");
    expect(codeOfRefusal(refusal(access("member"), "webhook:manage", "org_1"))).toBe("FORBIDDEN");
    expect(refusal(access("admin"), "webhook:manage", "org_1")).toBeNull();
  });

  it("states project visibility in SQL as it does in code", () => {
    const condition = visibleProjectSql(new Map([["org_1", access("member")]]), "p.organization_id", "p.id");
    expect(condition.sql).toBe("((p.organization_id = ? and p.id = any(?::text[])))");
    expect(condition.bindings).toEqual(["org_1", ["prj_1", "prj_2"]]);
    expect(visibleProjectSql(new Map(), "o", "p").sql).toBe("false");
    expect(visibleProjectSql(new Map([["org_1", access("admin")]]), "o", "p").sql).toBe("(o = ?)");
  });
});
