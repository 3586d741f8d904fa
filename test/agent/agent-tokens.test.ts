/**
 * Agent tokens from the dashboard's side (spec: Authentication → Agent API, rule 1): created through GraphQL,
 * shown once, stored hashed, one per person per organization (a new one replaces the old at once), revoked at
 * once, plan feature required; expired tokens and removed memberships answer 401.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects, setPassword } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";
import { type AgentErrorBody, agentGet, signIn } from "./agent-client.ts";

const t = useTestServer();

const CREATE = `mutation($input: CreateAgentTokenInput) {
  createAgentToken(input: $input) { token agentToken { prefix createdAt lastUsedAt expiresAt } }
}`;
const SHOW = "{ agentToken { prefix createdAt lastUsedAt expiresAt } }";
const REVOKE = "mutation { revokeAgentToken }";

type Created = {
  createAgentToken: { token: string; agentToken: { prefix: string; createdAt: string; expiresAt: string | null } };
};
type Shown = {
  agentToken: { prefix: string; createdAt: string; lastUsedAt: string | null; expiresAt: string | null } | null;
};

/** Status of GET /api/agent/projects with `token`. */
async function projectsStatus(token: string): Promise<number> {
  return (await agentGet(t.skiff.url, "/api/agent/projects", token)).status;
}

/** Session cookies of the seeded people, by user id (agent tokens are made by a signed-in person). */
const sessions = new Map<string, string>();

/** `createAgentToken` as `who` from a dashboard session (signed in once per person). */
async function create(who: { userId: string; email: string }, input?: { expiresInDays?: number }) {
  let cookie = sessions.get(who.userId);
  if (!cookie) {
    cookie = await sessionFor(t.db.knex, t.skiff.url, who);
    sessions.set(who.userId, cookie);
  }
  return gql<Created>(t.skiff.url, CREATE, { input }, { cookie });
}

describe("creating an agent token", () => {
  it("shows the secret once, stores only its hash, and reports prefix and dates afterwards", async () => {
    const org = await createOrg(t.db.knex);
    const res = await create(org.owner);
    expect(res.errors).toBeUndefined();
    const { token, agentToken } = res.data!.createAgentToken;
    expect(token).toMatch(/^skiff_agt_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(agentToken.prefix)).toBe(true);

    const row = await t.db.knex("agent_tokens").where({ organization_id: org.organizationId }).first();
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);

    const shown = await gql<Shown>(t.skiff.url, SHOW, {}, { apiKey: org.owner.apiKey });
    expect(shown.data?.agentToken).toEqual({
      prefix: agentToken.prefix,
      createdAt: agentToken.createdAt,
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(JSON.stringify(shown)).not.toContain(token);

    expect(await projectsStatus(token)).toBe(200);
    const used = await gql<Shown>(t.skiff.url, SHOW, {}, { apiKey: org.owner.apiKey });
    expect(used.data?.agentToken?.lastUsedAt).toEqual(expect.any(String));
  });

  it("is refused to an API key (FORBIDDEN): a token made by a key would outlive the key", async () => {
    const org = await createOrg(t.db.knex);
    const res = await gql<Created>(t.skiff.url, CREATE, {}, { apiKey: org.owner.apiKey });
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(res.errors?.[0]?.message).toContain("needs a signed-in session");
    expect(await t.db.knex("agent_tokens").where({ organization_id: org.organizationId })).toHaveLength(0);
  });

  it("works from a dashboard session", async () => {
    const org = await createOrg(t.db.knex);
    await setPassword(t.db.knex, org.owner.userId, "owner-password");
    const cookie = await signIn(t.skiff.url, org.owner.email, "owner-password");
    const res = await gql<Created>(t.skiff.url, CREATE, {}, { cookie });
    expect(res.errors).toBeUndefined();
    expect(await projectsStatus(res.data!.createAgentToken.token)).toBe(200);
    const shown = await gql<Shown>(t.skiff.url, SHOW, {}, { cookie });
    expect(shown.data?.agentToken?.prefix).toBe(res.data!.createAgentToken.agentToken.prefix);
  });

  it("requires the AI assistant feature on the plan (FORBIDDEN)", async () => {
    const org = await createOrg(t.db.knex, "plan_free");
    const res = await create(org.owner);
    expect(res.data).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(res.errors?.[0]?.message).toContain("ai_assistant");
    expect(await t.db.knex("agent_tokens").where({ organization_id: org.organizationId })).toHaveLength(0);
  });

  it("lets any member create their own, personal token", async () => {
    const org = await createOrg(t.db.knex);
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const mine = await create(member);
    const owners = await create(org.owner);
    expect(mine.errors).toBeUndefined();
    expect(owners.errors).toBeUndefined();
    const rows = await t.db.knex("agent_tokens").where({ organization_id: org.organizationId }).orderBy("user_id");
    expect(rows.map((r) => r.userId).sort()).toEqual([member.userId, org.owner.userId].sort());
    const shown = await gql<Shown>(t.skiff.url, SHOW, {}, { apiKey: member.apiKey });
    expect(shown.data?.agentToken?.prefix).toBe(mine.data!.createAgentToken.agentToken.prefix);
  });

  it("rejects an out-of-range lifetime and sets expiresAt for a valid one", async () => {
    const org = await createOrg(t.db.knex);
    for (const expiresInDays of [0, 366]) {
      const bad = await create(org.owner, { expiresInDays });
      expect(bad.errors?.[0]?.extensions).toMatchObject({
        code: "BAD_USER_INPUT",
        fieldErrors: { expiresInDays: [expect.any(String)] },
      });
    }
    const ok = await create(org.owner, { expiresInDays: 30 });
    const days = (Date.parse(ok.data!.createAgentToken.agentToken.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });
});

describe("replacing and revoking", () => {
  it("replaces the old token at once when a new one is created (one per person per organization)", async () => {
    const org = await createOrg(t.db.knex);
    const first = (await create(org.owner)).data!.createAgentToken.token;
    expect(await projectsStatus(first)).toBe(200);
    const second = (await create(org.owner)).data!.createAgentToken.token;
    expect(second).not.toBe(first);
    expect(await projectsStatus(first)).toBe(401);
    expect(await projectsStatus(second)).toBe(200);
    expect(await t.db.knex("agent_tokens").where({ organization_id: org.organizationId })).toHaveLength(1);
  });

  it("keeps one token per organization for a person in two organizations", async () => {
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    // The owner of `a` also joins `b`.
    const memberId = newId("member");
    await t.db
      .knex("members")
      .insert({ id: memberId, organization_id: b.organizationId, user_id: a.owner.userId, role: "admin" });
    // One session, switched from one organization to the other.
    const cookie = await sessionFor(t.db.knex, t.skiff.url, a.owner);
    const inOrganization = async (id: string) => {
      const switched = await gql(
        t.skiff.url,
        "mutation($id: ID!) { setActiveOrganization(id: $id) { role } }",
        { id },
        { cookie },
      );
      expect(switched.errors).toBeUndefined();
      return (await gql<Created>(t.skiff.url, CREATE, {}, { cookie })).data!.createAgentToken.token;
    };
    const inA = await inOrganization(a.organizationId);
    const inB = await inOrganization(b.organizationId);
    expect(await projectsStatus(inA)).toBe(200);
    expect(await projectsStatus(inB)).toBe(200);
    await createProjects(t.db.knex, b.organizationId, 1);
    const seenWithB = await agentGet<unknown[]>(t.skiff.url, "/api/agent/projects", inB);
    const seenWithA = await agentGet<unknown[]>(t.skiff.url, "/api/agent/projects", inA);
    expect(seenWithB.body).toHaveLength(1);
    expect(seenWithA.body).toHaveLength(0);
  });

  it("kills a revoked token at once", async () => {
    const org = await createOrg(t.db.knex);
    const token = (await create(org.owner)).data!.createAgentToken.token;
    expect(await projectsStatus(token)).toBe(200);
    const { id: tokenId } = await t.db.knex("agent_tokens").where({ organization_id: org.organizationId }).first("id");
    const revoked = await gql(t.skiff.url, REVOKE, {}, { apiKey: org.owner.apiKey });
    expect(revoked.data).toEqual({ revokeAgentToken: true });
    // Its audit entry names the token revoked.
    const entry = await t.db
      .knex("audit_events")
      .where({ organizationId: org.organizationId, action: "revokeAgentToken" })
      .first();
    expect(entry.targetIds).toEqual([tokenId]);
    const res = await agentGet<AgentErrorBody>(t.skiff.url, "/api/agent/projects", token);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
    expect((await gql(t.skiff.url, REVOKE, {}, { apiKey: org.owner.apiKey })).data).toEqual({
      revokeAgentToken: false,
    });
    expect((await gql<Shown>(t.skiff.url, SHOW, {}, { apiKey: org.owner.apiKey })).data).toEqual({ agentToken: null });
  });

  it("answers 401 for an expired token", async () => {
    const org = await createOrg(t.db.knex);
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner, new Date(Date.now() - 1000));
    const res = await agentGet<AgentErrorBody>(t.skiff.url, "/api/agent/projects", token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: expect.any(String), code: "UNAUTHORIZED" });
  });

  it("answers 401 once the owner's membership is removed", async () => {
    const org = await createOrg(t.db.knex);
    const member = await addMember(t.db.knex, org.organizationId, "admin");
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, member);
    expect(await projectsStatus(token)).toBe(200);
    await t.db.knex("members").where({ id: member.memberId }).delete();
    expect(await projectsStatus(token)).toBe(401);
  });
});
