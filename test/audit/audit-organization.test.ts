/**
 * Which organization's log holds a mutation's entry when a session acts on several organizations (a session reads
 * and changes every organization of its user): the organization of what the call changed, whichever is active; a
 * refusal on an organization the caller is not a member of stays in the caller's own log.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

const t = useTestServer();
const CREATE = "mutation($p: ID!, $n: String!) { createEnvironment(projectId: $p, name: $n) { id } }";

let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let outsider: Awaited<ReturnType<typeof createOrg>>;
let cookie: string;

beforeAll(async () => {
  [a, b, outsider] = [await createOrg(t.db.knex), await createOrg(t.db.knex), await createOrg(t.db.knex)];
  // A's owner is an admin of B too: one session for both.
  await t.db.knex("members").insert({
    id: newId("member"),
    organization_id: b.organizationId,
    user_id: a.owner.userId,
    role: "admin",
  });
  cookie = await sessionFor(t.db.knex, t.skiff.url, a.owner);
});

/** The organizations whose logs hold entries naming `target`. */
async function logsNaming(target: string): Promise<string[]> {
  const rows = await t.db.knex("audit_events").whereRaw("? = any(target_ids)", [target]).select("organization_id");
  return rows.map((r: { organizationId: string }) => r.organizationId);
}

describe("a session acting on several organizations", () => {
  it("writes each change's entry into the log of the organization it changed", async () => {
    for (const org of [a, b]) {
      const [project] = await createProjects(t.db.knex, org.organizationId, 1);
      const res = await gql<{ createEnvironment: { id: string } }>(
        t.skiff.url,
        CREATE,
        { p: project, n: "staging" },
        { cookie },
      );
      expect(res.errors).toBeUndefined();
      expect(await logsNaming(project!)).toEqual([org.organizationId]);
    }
  });

  it("keeps a refusal on another organization in the caller's own log", async () => {
    const [project] = await createProjects(t.db.knex, outsider.organizationId, 1);
    const res = await gql(t.skiff.url, CREATE, { p: project, n: "staging" }, { apiKey: a.owner.apiKey });
    expect(res.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await logsNaming(project!)).toEqual([a.organizationId]);
  });

  it("writes a join's entry into the joined organization's log, and an organization's creation into its own", async () => {
    const invited = await gql<{ inviteMember: { id: string; link: string } }>(
      t.skiff.url,
      "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id link } }",
      { input: { email: `joiner-${Date.now()}@example.test`, role: "member" } },
      { apiKey: a.owner.apiKey },
    );
    const invitation = invited.data!.inviteMember;
    const token = new URL(invitation.link).searchParams.get("token");
    const joined = await gql(
      t.skiff.url,
      "mutation($input: SignUpWithInvitationInput!) { signUpWithInvitation(input: $input) { id } }",
      { input: { token, name: "Joiner", password: "long-enough-password" } },
    );
    expect(joined.errors).toBeUndefined();
    const entry = await t.db
      .knex("audit_events")
      .where({ action: "signUpWithInvitation" })
      .whereRaw("? = any(target_ids)", [invitation.id])
      .first();
    expect(entry).toMatchObject({ organizationId: a.organizationId, outcome: "ok" });
    expect(entry.targetIds.some((id: string) => id.startsWith("mem_"))).toBe(true);

    const created = await gql<{ createOrganization: { id: string } }>(
      t.skiff.url,
      'mutation { createOrganization(input: { name: "Created Here" }) { id } }',
      {},
      { cookie },
    );
    expect(created.errors).toBeUndefined();
    const organizationId = created.data!.createOrganization.id;
    expect(await logsNaming(organizationId)).toEqual([organizationId]);
  });
});
