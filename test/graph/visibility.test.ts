/**
 * Tenant isolation of the read graph: another organization's resources and ungranted ones read
 * exactly like nonexistent ids; members limited by grants see only granted projects and applications.
 */
import { describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const PROJECT = "query($id: ID!) { project(id: $id) { id name } }";
const APPLICATION = "query($id: ID!) { application(id: $id) { id } }";
const PROJECT_NAMES =
  "{ projects(first: 100) { totalCount edges { node { id environments { applications { id } } } } } }";

type ProjectList = {
  projects: {
    totalCount: number;
    edges: Array<{ node: { id: string; environments: Array<{ applications: Array<{ id: string }> }> } }>;
  };
};

async function appsOf(knex: TestDatabase["knex"], projectId: string): Promise<string[]> {
  return (await knex("applications").where({ project_id: projectId }).orderBy("id").select("id")).map((r) => r.id);
}

describe("visibility", () => {
  it("answers another organization's project exactly like a missing one", async () => {
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    const [foreign] = await createProjects(t.db.knex, b.organizationId, 1);
    const missingId = `${foreign!.slice(0, -4)}zzzz`;
    const foreignRes = await gql(t.skiff.url, PROJECT, { id: foreign }, { apiKey: a.owner.apiKey });
    const missingRes = await gql(t.skiff.url, PROJECT, { id: missingId }, { apiKey: a.owner.apiKey });
    expect(foreignRes.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const strip = (r: typeof foreignRes, id: string) => JSON.stringify(r).replaceAll(id, "ID");
    expect(strip(foreignRes, foreign!)).toBe(strip(missingRes, missingId));
    const org = await gql(
      t.skiff.url,
      "query($id: ID!) { organization(id: $id) { id } }",
      { id: b.organizationId },
      { apiKey: a.owner.apiKey },
    );
    expect(org.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("shows admins and ungranted members every project, granted members only theirs", async () => {
    const org = await createOrg(t.db.knex);
    const shape = { applicationsPerEnvironment: 2 };
    const [p1, p2, p3] = await createProjects(t.db.knex, org.organizationId, 3, shape);
    const [p3app1, p3app2] = await appsOf(t.db.knex, p3!);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const limited = await addMember(t.db.knex, org.organizationId, "member", {
      projectIds: [p1!],
      applicationIds: [p3app1!],
    });

    for (const who of [admin, member]) {
      const res = await gql<ProjectList>(t.skiff.url, PROJECT_NAMES, {}, { apiKey: who.apiKey });
      expect(res.data?.projects.totalCount).toBe(3);
    }
    const res = await gql<ProjectList>(t.skiff.url, PROJECT_NAMES, {}, { apiKey: limited.apiKey });
    expect(res.errors).toBeUndefined();
    expect(res.data!.projects.totalCount).toBe(2);
    const byId = new Map(res.data!.projects.edges.map((e) => [e.node.id, e.node]));
    expect([...byId.keys()].sort()).toEqual([p1, p3].sort());
    expect(byId.get(p1!)!.environments[0]!.applications).toHaveLength(2);
    expect(byId.get(p3!)!.environments[0]!.applications.map((a) => a.id)).toEqual([p3app1]);

    const hidden = await gql(t.skiff.url, PROJECT, { id: p2 }, { apiKey: limited.apiKey });
    expect(hidden.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const hiddenApp = await gql(t.skiff.url, APPLICATION, { id: p3app2 }, { apiKey: limited.apiKey });
    expect(hiddenApp.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const shownApp = await gql(t.skiff.url, APPLICATION, { id: p3app1 }, { apiKey: limited.apiKey });
    expect(shownApp.data).toEqual({ application: { id: p3app1 } });
  });

  it("paginates with cursors, oldest first", async () => {
    const org = await createOrg(t.db.knex);
    const ids = await createProjects(t.db.knex, org.organizationId, 5);
    const page = `query($after: String) { projects(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`;
    type Page = {
      projects: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        edges: Array<{ node: { id: string } }>;
      };
    };
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 3; i++) {
      const res: Awaited<ReturnType<typeof gql<Page>>> = await gql<Page>(
        t.skiff.url,
        page,
        { after },
        { apiKey: org.owner.apiKey },
      );
      expect(res.data!.projects.totalCount).toBe(5);
      seen.push(...res.data!.projects.edges.map((e) => e.node.id));
      after = res.data!.projects.pageInfo.endCursor;
      expect(res.data!.projects.pageInfo.hasNextPage).toBe(i < 2);
    }
    expect(seen).toEqual(ids);
  });
});
