/**
 * The three read-only agent endpoints (spec: Endpoints → Agent API (read-only); Errors → Agent API; Limits):
 * exact fields, nullability and order, all projects in one unwrapped array (N+1-free), deployments newest
 * first with `limit` 1..50 (default 10), 400 with `issues`, 404 for invisible applications, and a member's view.
 */
import { describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { type AgentErrorBody, agentGet } from "./agent-client.ts";

// No job runner: its periodic statements would be counted with the requests'.
const t = useTestServer({ SKIFF_WORKER: "false" });

type Row = Record<string, unknown>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An organization with an owner's agent token. */
async function orgWithToken(plan?: string) {
  const org = await createOrg(t.db.knex, plan);
  const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
  return { ...org, token };
}

/**
 * The expected GET /api/agent/projects body, built from the database, oldest project first. For a limited member,
 * `visibleAppIds` and `grantedProjectIds`: a project not granted as a whole shows only the environments holding one
 * of its visible applications.
 */
async function expectedProjects(projectIds: string[], visibleAppIds?: Set<string>, grantedProjectIds?: Set<string>) {
  const projects: Row[] = await t.db.knex("projects").whereIn("id", projectIds).orderBy("id");
  return Promise.all(
    projects.map(async (p) => {
      const all: Row[] = await t.db.knex("environments").where({ project_id: p.id }).orderBy("id");
      const holdsVisible = async (e: Row) =>
        (await t.db.knex("applications").where({ environment_id: e.id })).some((a) => visibleAppIds!.has(a.id));
      const envs = [];
      for (const e of all) {
        if (!visibleAppIds || grantedProjectIds?.has(p.id as string) || (await holdsVisible(e))) envs.push(e);
      }
      return {
        projectId: p.id,
        name: p.name,
        description: p.description,
        createdAt: iso(p.createdAt as Date),
        environments: await Promise.all(
          envs.map(async (e) => {
            const apps: Row[] = await t.db.knex("applications").where({ environment_id: e.id }).orderBy("id");
            return {
              environmentId: e.id,
              name: e.name,
              applications: apps
                .filter((a) => !visibleAppIds || visibleAppIds.has(a.id as string))
                .map((a) => ({
                  applicationId: a.id,
                  name: a.name,
                  appName: a.appName,
                  applicationStatus: a.applicationStatus,
                  createdAt: iso(a.createdAt as Date),
                })),
            };
          }),
        ),
      };
    }),
  );
}

async function appsOf(projectId: string): Promise<string[]> {
  return (await t.db.knex("applications").where({ project_id: projectId }).orderBy("id")).map((r) => r.id);
}

describe("GET /api/agent/projects", () => {
  it("returns every visible project with environments and applications, exactly the documented fields", async () => {
    const org = await orgWithToken();
    const ids = await createProjects(t.db.knex, org.organizationId, 3, {
      environments: 2,
      applicationsPerEnvironment: 2,
    });
    await t.db.knex("projects").where({ id: ids[0] }).update({ description: "the shop" });
    await t.db
      .knex("applications")
      .where({ id: (await appsOf(ids[1]!))[0] })
      .update({ application_status: null });
    const other = await createOrg(t.db.knex);
    await createProjects(t.db.knex, other.organizationId, 2, { applicationsPerEnvironment: 1 });

    for (const header of ["x-api-key", "bearer"] as const) {
      const res = await agentGet<Row[]>(t.skiff.url, "/api/agent/projects", org.token, header);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.body).toEqual(await expectedProjects(ids));
      expect(Object.keys(res.body[0]!)).toEqual(["projectId", "name", "description", "createdAt", "environments"]);
    }
  });

  it("returns all projects, not a page, with the same number of queries per page of 100", async () => {
    const org = await orgWithToken();
    const small = await orgWithToken();
    const ids = await createProjects(t.db.knex, org.organizationId, 230, { applicationsPerEnvironment: 1 });
    await createProjects(t.db.knex, small.organizationId, 3, { applicationsPerEnvironment: 1 });

    const count = async (token: string) => {
      let queries = 0;
      const onQuery = () => void queries++;
      t.skiff.services.knex.on("query", onQuery);
      try {
        const res = await agentGet<Row[]>(t.skiff.url, "/api/agent/projects", token);
        return { res, queries };
      } finally {
        t.skiff.services.knex.off("query", onQuery);
      }
    };
    const big = await count(org.token);
    expect(big.res.status).toBe(200);
    expect(big.res.body.map((p) => p.projectId)).toEqual([...ids].sort());
    const one = await count(small.token);
    expect(one.res.body).toHaveLength(3);
    // 3 pages of 100 cost the per-request queries once plus the per-page ones three times: no query per project.
    const perPage = (big.queries - one.queries) / 2;
    expect(perPage).toBeGreaterThan(0);
    expect(perPage).toBeLessThanOrEqual(4);
    expect(one.queries).toBeLessThanOrEqual(8);
  });

  it("returns an empty array for an organization without projects", async () => {
    const org = await orgWithToken();
    const res = await agentGet(t.skiff.url, "/api/agent/projects", org.token);
    expect(res).toMatchObject({ status: 200, body: [] });
  });
});

describe("GET /api/agent/application", () => {
  it("returns the application with project, environment and domains, exactly the documented fields", async () => {
    const org = await orgWithToken();
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, {
      applicationsPerEnvironment: 1,
      domainsPerApplication: 2,
    });
    const [appId] = await appsOf(projectId!);
    const domains: Row[] = await t.db.knex("domains").where({ application_id: appId }).orderBy("id");
    await t.db.knex("domains").where({ id: domains[1]!.id }).update({ port: null, https: null });
    const app: Row = await t.db.knex("applications").where({ id: appId }).first();
    const project: Row = await t.db.knex("projects").where({ id: projectId }).first();
    const env: Row = await t.db.knex("environments").where({ id: app.environmentId }).first();

    const res = await agentGet<Row>(t.skiff.url, `/api/agent/application?applicationId=${appId}`, org.token, "bearer");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      applicationId: appId,
      name: app.name,
      appName: app.appName,
      applicationStatus: "idle",
      buildType: "dockerfile",
      sourceType: "docker",
      createdAt: iso(app.createdAt as Date),
      project: { projectId, name: project.name },
      environment: { environmentId: env.id, name: "production" },
      domains: [
        { host: domains[0]!.host, port: 80, https: true },
        { host: domains[1]!.host, port: null, https: null },
      ],
    });
  });

  it("answers 404 NOT_FOUND for an unknown id and for another organization's application, identically", async () => {
    const org = await orgWithToken();
    const other = await createOrg(t.db.knex);
    const [foreignProject] = await createProjects(t.db.knex, other.organizationId, 1, {
      applicationsPerEnvironment: 1,
    });
    const [foreign] = await appsOf(foreignProject!);
    const missing = `${foreign!.slice(0, -4)}zzzz`;
    const a = await agentGet<AgentErrorBody>(t.skiff.url, `/api/agent/application?applicationId=${foreign}`, org.token);
    const b = await agentGet<AgentErrorBody>(t.skiff.url, `/api/agent/application?applicationId=${missing}`, org.token);
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ message: expect.any(String), code: "NOT_FOUND" });
    expect(JSON.stringify(a.body).replaceAll(foreign!, "ID")).toBe(JSON.stringify(b.body).replaceAll(missing, "ID"));
  });

  it("answers 400 BAD_REQUEST naming applicationId when it is missing or empty, 404 for impossible ids", async () => {
    const org = await orgWithToken();
    for (const query of ["", "?applicationId=", "?other=1"]) {
      const res = await agentGet<AgentErrorBody>(t.skiff.url, `/api/agent/application${query}`, org.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "BAD_REQUEST", message: expect.any(String) });
      expect(res.body.issues).toEqual([{ path: ["applicationId"], message: expect.any(String) }]);
    }
    for (const id of ["%00", "app_%00x", encodeURIComponent("' or 1=1 --"), "x".repeat(5000)]) {
      const res = await agentGet<AgentErrorBody>(t.skiff.url, `/api/agent/application?applicationId=${id}`, org.token);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
  });
});

describe("malformed query strings", () => {
  it("never answer 500", async () => {
    const org = await orgWithToken();
    const queries = [
      "applicationId=%",
      "applicationId=%ZZ",
      "applicationId=%C0%80",
      "applicationId=%ED%A0%80",
      "applicationId=%FF%FE",
      "applicationId[]=x",
      "applicationId=a&applicationId=b",
      "applicationId=a&limit=5&limit=x",
      "applicationId=a&limit=%00",
      "applicationId=a&limit[x]=1",
      "&&&=&=",
    ];
    for (const path of ["/api/agent/application", "/api/agent/deployments", "/api/agent/projects"]) {
      for (const query of queries) {
        const res = await agentGet<AgentErrorBody>(t.skiff.url, `${path}?${query}`, org.token);
        expect([200, 400, 404], `${path}?${query}`).toContain(res.status);
        if (res.status !== 200) expect(["BAD_REQUEST", "NOT_FOUND"]).toContain(res.body.code);
      }
    }
  });
});

describe("GET /api/agent/deployments", () => {
  async function appWithDeployments(n: number) {
    const org = await orgWithToken();
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, {
      applicationsPerEnvironment: 1,
      deploymentsPerApplication: n,
    });
    const [appId] = await appsOf(projectId!);
    return { ...org, appId: appId! };
  }

  it("returns the newest 10 by default, newest first, exactly the documented fields", async () => {
    const { token, appId } = await appWithDeployments(12);
    const rows: Row[] = await t.db.knex("deployments").where({ application_id: appId }).orderBy("created_at", "desc");
    await t.db
      .knex("deployments")
      .where({ id: rows[0]!.id })
      .update({
        status: null,
        description: "first try",
        started_at: new Date("2026-01-02T00:00:00Z"),
        finished_at: new Date("2026-01-02T00:01:00Z"),
      });
    const res = await agentGet<Row[]>(t.skiff.url, `/api/agent/deployments?applicationId=${appId}`, token);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.body[0]).toEqual({
      deploymentId: rows[0]!.id,
      status: null,
      title: "deploy 11",
      description: "first try",
      createdAt: "2026-01-01T00:00:11.000Z",
      startedAt: "2026-01-02T00:00:00.000Z",
      finishedAt: "2026-01-02T00:01:00.000Z",
    });
    expect(res.body[1]).toEqual({
      deploymentId: rows[1]!.id,
      status: "done",
      title: "deploy 10",
      description: null,
      createdAt: "2026-01-01T00:00:10.000Z",
      startedAt: null,
      finishedAt: null,
    });
    expect(res.body.map((d) => d.deploymentId)).toEqual(rows.slice(0, 10).map((r) => r.id));
  });

  it("honours limit from 1 to 50", async () => {
    const { token, appId } = await appWithDeployments(55);
    for (const [limit, n] of [
      [1, 1],
      [50, 50],
      [12, 12],
    ]) {
      const res = await agentGet<Row[]>(
        t.skiff.url,
        `/api/agent/deployments?applicationId=${appId}&limit=${limit}`,
        token,
      );
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(n!);
    }
  });

  it("answers 400 BAD_REQUEST with issues naming limit or applicationId", async () => {
    const { token, appId } = await appWithDeployments(1);
    for (const limit of ["0", "51", "-1", "1.5", "abc", "", "1e1", "99999999999999999999", " 10", "10 ", "+5", "05"]) {
      const res = await agentGet<AgentErrorBody>(
        t.skiff.url,
        `/api/agent/deployments?applicationId=${appId}&limit=${encodeURIComponent(limit)}`,
        token,
      );
      expect(res.status, `limit=${limit}`).toBe(400);
      expect(res.body).toMatchObject({ code: "BAD_REQUEST", message: expect.any(String) });
      expect(res.body.issues).toEqual([{ path: ["limit"], message: expect.any(String) }]);
    }
    // A parameter given twice is refused, not read as its first value.
    for (const [query, name] of [
      [`applicationId=${appId}&limit=1&limit=2`, "limit"],
      [`applicationId=${appId}&applicationId=${appId}`, "applicationId"],
    ] as const) {
      const res = await agentGet<AgentErrorBody>(t.skiff.url, `/api/agent/deployments?${query}`, token);
      expect(res.status, query).toBe(400);
      expect(res.body.issues, query).toEqual([{ path: [name], message: "Must be given once" }]);
    }
    const twice = await agentGet<AgentErrorBody>(
      t.skiff.url,
      `/api/agent/application?applicationId=${appId}&applicationId=x`,
      token,
    );
    expect(twice.status).toBe(400);
    expect(twice.body.issues).toEqual([{ path: ["applicationId"], message: "Must be given once" }]);
    const both = await agentGet<AgentErrorBody>(t.skiff.url, "/api/agent/deployments?limit=0", token);
    expect(both.status).toBe(400);
    expect(both.body.issues?.map((i) => i.path)).toEqual([["applicationId"], ["limit"]]);
  });

  it("answers 404 for an invisible application", async () => {
    const { token } = await appWithDeployments(1);
    const other = await appWithDeployments(1);
    const res = await agentGet<AgentErrorBody>(
      t.skiff.url,
      `/api/agent/deployments?applicationId=${other.appId}`,
      token,
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("NOT_FOUND");
  });
});

describe("unknown agent paths", () => {
  it("answer 404 in the agent API's error body, as its endpoints do", async () => {
    const { token } = await orgWithToken();
    for (const path of ["/api/agent/nope", "/api/agent/projects/x", "/api/agent"]) {
      const res = await agentGet<AgentErrorBody>(t.skiff.url, path, token);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ message: "No route answers GET on this path", code: "NOT_FOUND" });
    }
  });
});

describe("visibility by role", () => {
  it("shows owners and admins everything, and a limited member only granted projects and services", async () => {
    const org = await createOrg(t.db.knex);
    const [p1, p2, p3] = await createProjects(t.db.knex, org.organizationId, 3, {
      applicationsPerEnvironment: 2,
      deploymentsPerApplication: 1,
    });
    const [p3app1, p3app2] = await appsOf(p3!);
    const [p2app1] = await appsOf(p2!);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const limited = await addMember(t.db.knex, org.organizationId, "member", {
      projectIds: [p1!],
      applicationIds: [p3app1!],
    });
    const adminToken = await createAgentTokenFor(t.db.knex, org.organizationId, admin);
    const ownerToken = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    const memberToken = await createAgentTokenFor(t.db.knex, org.organizationId, limited);
    // An environment holding nothing granted: seen in the granted project p1, not in p3 (only p3app1 granted).
    for (const projectId of [p1!, p3!]) {
      await t.db
        .knex("environments")
        .insert({ id: newId("environment"), project_id: projectId, name: "secret-staging" });
    }

    for (const token of [ownerToken, adminToken]) {
      const res = await agentGet<Row[]>(t.skiff.url, "/api/agent/projects", token);
      expect(res.body).toEqual(await expectedProjects([p1!, p2!, p3!]));
    }
    const mine = await agentGet<Row[]>(t.skiff.url, "/api/agent/projects", memberToken);
    const visibleApps = new Set([...(await appsOf(p1!)), p3app1!]);
    expect(mine.body).toEqual(await expectedProjects([p1!, p3!], visibleApps, new Set([p1!])));
    const names = (mine.body as Array<{ environments: Array<{ name: string }> }>).map((p) =>
      p.environments.map((e) => e.name),
    );
    expect(names).toEqual([["production", "secret-staging"], ["production"]]);

    const granted = await agentGet<Row>(t.skiff.url, `/api/agent/application?applicationId=${p3app1}`, memberToken);
    expect(granted.status).toBe(200);
    for (const hidden of [p3app2!, p2app1!]) {
      const app = await agentGet<AgentErrorBody>(
        t.skiff.url,
        `/api/agent/application?applicationId=${hidden}`,
        memberToken,
      );
      expect(app.status).toBe(404);
      expect(app.body.code).toBe("NOT_FOUND");
      const deps = await agentGet(t.skiff.url, `/api/agent/deployments?applicationId=${hidden}`, memberToken);
      expect(deps.status).toBe(404);
    }
    const deps = await agentGet<Row[]>(t.skiff.url, `/api/agent/deployments?applicationId=${p3app1}`, memberToken);
    expect(deps.body).toHaveLength(1);
  });
});
