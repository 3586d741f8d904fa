/**
 * Team management by role (spec Role table): owners and admins manage members and grants; the owner cannot be
 * removed or demoted except by transferring ownership; a member limited by grants sees only granted projects
 * or applications, and sees everything again when the last grant is revoked — but nothing when what it was granted
 * is deleted (it stays limited); removing a member kills their
 * API keys at once (and for good).
 */
import { describe, expect, it } from "vitest";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const ROLE = `mutation($id: ID!, $role: Role!) { updateMemberRole(memberId: $id, role: $role) { id role } }`;
const REMOVE = `mutation($id: ID!) { removeMember(memberId: $id) }`;
const TRANSFER = `mutation($id: ID!) { transferOwnership(memberId: $id) { id role } }`;
const GRANT = `mutation($input: GrantAccessInput!) { grantAccess(input: $input) { id project { id } application { id } } }`;
const REVOKE = `mutation($id: ID!) { revokeAccess(grantId: $id) }`;
const PROJECTS = `{ projects(first: 100) { totalCount edges { node { id } } } }`;

function code(res: { errors?: Array<{ extensions?: { code?: string } }> }) {
  return res.errors?.[0]?.extensions?.code;
}

describe("members", () => {
  it("lists members with roles to every member", async () => {
    const org = await createOrg(t.db.knex);
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const res = await gql<{ organization: { members: Array<{ role: string; user: { email: string } }> } }>(
      t.skiff.url,
      `query($id: ID!) { organization(id: $id) { members { id role user { email } grants { id } } } }`,
      { id: org.organizationId },
      { apiKey: member.apiKey },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.organization.members.map((m) => [m.user.email, m.role])).toEqual([
      [org.owner.email, "owner"],
      [member.email, "member"],
    ]);
  });

  it("lets admins change roles and remove members, never the owner; members manage nobody", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const other = await addMember(t.db.knex, org.organizationId, "member");

    expect(code(await gql(t.skiff.url, ROLE, { id: other.memberId, role: "admin" }, { apiKey: member.apiKey }))).toBe(
      "FORBIDDEN",
    );
    expect(code(await gql(t.skiff.url, REMOVE, { id: other.memberId }, { apiKey: member.apiKey }))).toBe("FORBIDDEN");
    expect(
      (await gql(t.skiff.url, ROLE, { id: member.memberId, role: "admin" }, { apiKey: admin.apiKey })).data,
    ).toEqual({
      updateMemberRole: { id: member.memberId, role: "admin" },
    });
    expect(code(await gql(t.skiff.url, ROLE, { id: member.memberId, role: "owner" }, { apiKey: admin.apiKey }))).toBe(
      "BAD_USER_INPUT",
    );
    for (const apiKey of [admin.apiKey, org.owner.apiKey]) {
      expect(code(await gql(t.skiff.url, ROLE, { id: org.owner.memberId, role: "member" }, { apiKey }))).toBe(
        "FORBIDDEN",
      );
      expect(code(await gql(t.skiff.url, REMOVE, { id: org.owner.memberId }, { apiKey }))).toBe("FORBIDDEN");
    }
    expect(await t.db.knex("members").where({ id: org.owner.memberId }).first()).toMatchObject({ role: "owner" });

    expect((await gql(t.skiff.url, REMOVE, { id: other.memberId }, { apiKey: admin.apiKey })).data).toEqual({
      removeMember: other.memberId,
    });
    const dead = await gql(t.skiff.url, "{ viewer { role } }", {}, { apiKey: other.apiKey });
    expect(code(dead)).toBe("UNAUTHENTICATED");
    expect(await t.db.knex("api_keys").where({ id: other.apiKeyId }).first()).toBeUndefined();
  });

  it("transfers ownership: the new owner gets everything, the old owner becomes an admin", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    expect(code(await gql(t.skiff.url, TRANSFER, { id: admin.memberId }, { apiKey: admin.apiKey }))).toBe("FORBIDDEN");
    expect(code(await gql(t.skiff.url, TRANSFER, { id: org.owner.memberId }, { apiKey: org.owner.apiKey }))).toBe(
      "BAD_USER_INPUT",
    );
    const res = await gql(t.skiff.url, TRANSFER, { id: admin.memberId }, { apiKey: org.owner.apiKey });
    expect(res.data).toEqual({ transferOwnership: { id: admin.memberId, role: "owner" } });
    const roles = await t.db
      .knex("members")
      .where({ organization_id: org.organizationId })
      .orderBy("id")
      .select("role");
    expect(roles.map((r) => r.role)).toEqual(["admin", "owner"]);
    // The former owner can now be demoted and removed by the new owner.
    expect((await gql(t.skiff.url, REMOVE, { id: org.owner.memberId }, { apiKey: admin.apiKey })).data).toEqual({
      removeMember: org.owner.memberId,
    });
  });

  it("answers another organization's member like a missing one", async () => {
    const org = await createOrg(t.db.knex);
    const other = await createOrg(t.db.knex);
    const foreign = await gql(t.skiff.url, REMOVE, { id: other.owner.memberId }, { apiKey: org.owner.apiKey });
    const missing = await gql(
      t.skiff.url,
      REMOVE,
      { id: "mem_00000000000000000000000000" },
      { apiKey: org.owner.apiKey },
    );
    expect(code(foreign)).toBe("NOT_FOUND");
    expect(JSON.stringify(foreign).replace(other.owner.memberId, "X")).toBe(
      JSON.stringify(missing).replace("mem_00000000000000000000000000", "X"),
    );
  });
});

describe("grants", () => {
  it("limits a member to granted projects and applications, and lifts the limit when the last grant goes", async () => {
    const org = await createOrg(t.db.knex);
    const [p1, p2, p3] = await createProjects(t.db.knex, org.organizationId, 3, { applicationsPerEnvironment: 2 });
    const [app] = (await t.db.knex("applications").where({ project_id: p3 }).orderBy("id").select("id")).map(
      (r) => r.id,
    );
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const visible = async () =>
      (await gql<{ projects: { totalCount: number } }>(t.skiff.url, PROJECTS, {}, { apiKey: member.apiKey })).data!
        .projects.totalCount;
    expect(await visible()).toBe(3);

    expect(
      code(
        await gql(
          t.skiff.url,
          GRANT,
          { input: { memberId: member.memberId, projectId: p1 } },
          { apiKey: member.apiKey },
        ),
      ),
    ).toBe("FORBIDDEN");
    const g1 = await gql<{ grantAccess: { id: string } }>(
      t.skiff.url,
      GRANT,
      { input: { memberId: member.memberId, projectId: p1 } },
      { apiKey: admin.apiKey },
    );
    expect(g1.data!.grantAccess).toMatchObject({ project: { id: p1 }, application: null });
    const same = await gql<{ grantAccess: { id: string } }>(
      t.skiff.url,
      GRANT,
      { input: { memberId: member.memberId, projectId: p1 } },
      { apiKey: admin.apiKey },
    );
    expect(same.data!.grantAccess.id).toBe(g1.data!.grantAccess.id);
    const g2 = await gql<{ grantAccess: { id: string } }>(
      t.skiff.url,
      GRANT,
      { input: { memberId: member.memberId, applicationId: app } },
      { apiKey: org.owner.apiKey },
    );
    expect(g2.errors).toBeUndefined();
    expect(await visible()).toBe(2);
    const hidden = await gql(
      t.skiff.url,
      `query($id: ID!) { project(id: $id) { id } }`,
      { id: p2 },
      { apiKey: member.apiKey },
    );
    expect(code(hidden)).toBe("NOT_FOUND");

    expect(
      code(
        await gql(
          t.skiff.url,
          GRANT,
          { input: { memberId: admin.memberId, projectId: p2 } },
          { apiKey: org.owner.apiKey },
        ),
      ),
    ).toBe("BAD_USER_INPUT");
    expect(
      code(
        await gql(
          t.skiff.url,
          GRANT,
          { input: { memberId: member.memberId, projectId: p2, applicationId: app } },
          { apiKey: admin.apiKey },
        ),
      ),
    ).toBe("BAD_USER_INPUT");
    const other = await createOrg(t.db.knex);
    const [foreignProject] = await createProjects(t.db.knex, other.organizationId, 1);
    expect(
      code(
        await gql(
          t.skiff.url,
          GRANT,
          { input: { memberId: member.memberId, projectId: foreignProject } },
          { apiKey: admin.apiKey },
        ),
      ),
    ).toBe("NOT_FOUND");

    expect(code(await gql(t.skiff.url, REVOKE, { id: g1.data!.grantAccess.id }, { apiKey: member.apiKey }))).toBe(
      "FORBIDDEN",
    );
    await gql(t.skiff.url, REVOKE, { id: g1.data!.grantAccess.id }, { apiKey: admin.apiKey });
    expect(await visible()).toBe(1);
    await gql(t.skiff.url, REVOKE, { id: g2.data!.grantAccess.id }, { apiKey: admin.apiKey });
    expect(await visible()).toBe(3);
  });

  it("grants one target once however many grant it at once; revoking that grant lifts the limit", async () => {
    const org = await createOrg(t.db.knex);
    const [p1] = await createProjects(t.db.knex, org.organizationId, 2);
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        gql<{ grantAccess: { id: string } }>(
          t.skiff.url,
          GRANT,
          { input: { memberId: member.memberId, projectId: p1 } },
          { apiKey: org.owner.apiKey },
        ),
      ),
    );
    expect(answers.filter((a) => a.errors)).toEqual([]);
    const ids = new Set(answers.map((a) => a.data!.grantAccess.id));
    expect(ids.size).toBe(1);
    expect(await t.db.knex("member_grants").where({ member_id: member.memberId }).pluck("id")).toEqual([...ids]);
    await gql(t.skiff.url, REVOKE, { id: [...ids][0] }, { apiKey: org.owner.apiKey });
    const seen = await gql<{ projects: { totalCount: number } }>(t.skiff.url, PROJECTS, {}, { apiKey: member.apiKey });
    expect(seen.data!.projects.totalCount).toBe(2);
  });

  it("keeps a member limited when what it was granted is deleted: it sees nothing until granted again", async () => {
    const org = await createOrg(t.db.knex);
    const projects = await createProjects(t.db.knex, org.organizationId, 3, { applicationsPerEnvironment: 1 });
    const [app] = await t.db.knex("applications").where({ project_id: projects[0] }).pluck("id");
    const viaApplication = await addMember(t.db.knex, org.organizationId, "member", { applicationIds: [app] });
    const viaProject = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [projects[1]!] });
    const visibleTo = async (apiKey: string) =>
      (await gql<{ projects: { totalCount: number } }>(t.skiff.url, PROJECTS, {}, { apiKey })).data!.projects
        .totalCount;
    expect(await visibleTo(viaApplication.apiKey)).toBe(1);
    expect(await visibleTo(viaProject.apiKey)).toBe(1);

    const owner = { apiKey: org.owner.apiKey };
    expect(
      (await gql(t.skiff.url, "mutation($id: ID!) { deleteApplication(id: $id) }", { id: app }, owner)).errors,
    ).toBeUndefined();
    expect(
      (await gql(t.skiff.url, "mutation($id: ID!) { deleteProject(id: $id) }", { id: projects[1] }, owner)).errors,
    ).toBeUndefined();
    expect(await visibleTo(viaApplication.apiKey)).toBe(0);
    expect(await visibleTo(viaProject.apiKey)).toBe(0);
    const hidden = await gql(
      t.skiff.url,
      `query($id: ID!) { project(id: $id) { id } }`,
      { id: projects[2] },
      {
        apiKey: viaProject.apiKey,
      },
    );
    expect(code(hidden)).toBe("NOT_FOUND");
    const members = await gql<{
      organization: { members: Array<{ id: string; limitedToGrants: boolean; grants: unknown[] }> };
    }>(
      t.skiff.url,
      `query($id: ID!) { organization(id: $id) { members { id limitedToGrants grants { id } } } }`,
      { id: org.organizationId },
      owner,
    );
    const listed = members.data!.organization.members.find((m) => m.id === viaProject.memberId);
    expect(listed).toEqual({ id: viaProject.memberId, limitedToGrants: true, grants: [] });

    // Granted again, it sees that project; its last grant revoked, every project.
    const granted = await gql<{ grantAccess: { id: string } }>(
      t.skiff.url,
      GRANT,
      { input: { memberId: viaProject.memberId, projectId: projects[2] } },
      owner,
    );
    expect(await visibleTo(viaProject.apiKey)).toBe(1);
    await gql(t.skiff.url, REVOKE, { id: granted.data!.grantAccess.id }, owner);
    expect(await visibleTo(viaProject.apiKey)).toBe(2); // projects[0] and projects[2]: every project left
    expect(await t.db.knex("members").where({ id: viaProject.memberId }).first("limited_to_grants")).toEqual({
      limitedToGrants: false,
    });
  });
});
