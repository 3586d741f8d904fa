/**
 * Creates racing the deletion of their parent, over real HTTP against a real server and PostgreSQL: an application,
 * database, environment, domain, variable or deployment created in a project, environment or application that another request
 * deletes at the same moment either exists afterwards (it was created first and went with its parent, or its parent
 * survived) or answers NOT_FOUND (its parent was gone when it was written) — never an internal error, and nothing is
 * left without its parent.
 */
import { describe, expect, it } from "vitest";
import { createOrg, createProjects, createRegistry } from "../helpers/seed.ts";
import { captureLogs, type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

/** The server's error log lines: an internal error is printed with its cause (matched by `errorId`). */
const logs = captureLogs("error");
const t = useTestServer({ SKIFF_WORKER: "false" }, logs.logger);

/** Races per scenario: enough for every interleaving (before, during, after the delete) to occur. */
const ROUNDS = 25;

const Q = {
  deleteProject: "mutation($id: ID!) { deleteProject(id: $id) }",
  deleteEnvironment: "mutation($id: ID!) { deleteEnvironment(id: $id) }",
  deleteApplication: "mutation($id: ID!) { deleteApplication(id: $id) }",
  createApplication: "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }",
  createDatabase: "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }",
  createEnvironment: "mutation($p: ID!, $n: String!) { createEnvironment(projectId: $p, name: $n) { id } }",
  addDomain: "mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }",
  setVariable: 'mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "RACE", value: "1") { id } }',
  deploy: 'mutation($a: ID!) { deployApplication(applicationId: $a, title: "race") { id } }',
  setVariables:
    'mutation($a: ID!) { setEnvironmentVariables(applicationId: $a, dotenv: "A=1\\nB=2", deploy: true) { setKeys } }',
};

/** One project with two environments, an application in each; its ids. */
async function tree(organizationId: string) {
  const [projectId] = await createProjects(t.db.knex, organizationId, 1, {
    environments: 2,
    applicationsPerEnvironment: 1,
  });
  const envs = await t.db.knex("environments").where({ project_id: projectId }).orderBy("name").pluck("id");
  const apps = await t.db.knex("applications").where({ project_id: projectId }).orderBy("id").select("id");
  const appOf = async (environmentId: string) =>
    (await t.db.knex("applications").where({ environment_id: environmentId }).first("id")).id as string;
  return {
    projectId: projectId!,
    environmentId: envs[0] as string,
    otherEnvironmentId: envs[1] as string,
    applicationId: await appOf(envs[0] as string),
    otherApplicationId: await appOf(envs[1] as string),
    applications: apps.length,
  };
}

/**
 * Outcome of an answer: `ok` or its error code; `createDatabase` naming an application deleted before its check
 * answers as the schema documents (`fieldErrors["applicationIds.0"]`), told apart here.
 */
function outcome(res: GqlResponse): string {
  const ext = res.errors?.[0]?.extensions;
  if (ext?.code === "BAD_USER_INPUT" && (ext.fieldErrors as Record<string, unknown>)?.["applicationIds.0"]) {
    return "applicationIds.0";
  }
  return String(ext?.code ?? "ok");
}

/** Rows whose parent row is missing (none may exist after any race). */
async function orphans(): Promise<Record<string, number>> {
  const count = async (sql: string) => Number((await t.db.knex.raw(sql)).rows[0].n);
  return {
    applications: await count(
      "select count(*) n from applications a where not exists (select 1 from environments e where e.id = a.environment_id)",
    ),
    databases: await count(
      "select count(*) n from databases d where not exists (select 1 from environments e where e.id = d.environment_id)",
    ),
    environments: await count(
      "select count(*) n from environments e where not exists (select 1 from projects p where p.id = e.project_id)",
    ),
    domains: await count(
      "select count(*) n from domains d where not exists (select 1 from applications a where a.id = d.application_id)",
    ),
  };
}

describe("creates racing the deletion of their parent", () => {
  it("answer ok or NOT_FOUND, never an internal error, and leave no orphan", { timeout: 240_000 }, async () => {
    const org = await createOrg(t.db.knex);
    await createRegistry(t.db.knex, org.organizationId);
    const key = { apiKey: org.owner.apiKey };
    const call = (query: string, variables: Record<string, unknown>) => gql(t.skiff.url, query, variables, key);
    const seen: Record<string, Record<string, number>> = {};
    const messages: string[] = [];
    const record = (scenario: string, res: GqlResponse) => {
      seen[scenario] ??= {};
      const counts = seen[scenario];
      const o = outcome(res);
      counts[o] = (counts[o] ?? 0) + 1;
      if (o === "INTERNAL_SERVER_ERROR") {
        const errorId = String(res.errors?.[0]?.extensions?.errorId ?? "");
        const cause = logs.lines.filter((l) => errorId && JSON.stringify(l).includes(errorId));
        console.error(scenario, JSON.stringify(res.errors), JSON.stringify(cause));
      }
      // A parent gone during the write reads like one gone before the check; an object created and then deleted
      // with its parent before the answer was read is named gone itself.
      if (
        o === "NOT_FOUND" &&
        !/^(Project|Environment|Application|Domain|Database|Deployment) \S+ not found$/.test(res.errors![0]!.message)
      ) {
        messages.push(`${scenario}: ${res.errors![0]!.message}`);
      }
    };
    for (let round = 0; round < ROUNDS; round++) {
      const w = await tree(org.organizationId);
      const n = `r${round}`;
      const host = (s: string) => `${s}-${w.applicationId.slice(-10)}.example.test`.toLowerCase();
      // The project goes while something is created at every level of it.
      const projectRace = [
        call(Q.deleteProject, { id: w.projectId }),
        ...[
          [
            "project/createApplication",
            call(Q.createApplication, {
              i: { environmentId: w.environmentId, name: n, source: { type: "docker", dockerImage: "nginx:1" } },
            }),
          ],
          [
            "project/createDatabase",
            call(Q.createDatabase, {
              i: {
                environmentId: w.environmentId,
                type: "postgres",
                name: n,
                user: "u",
                applicationIds: [w.applicationId],
              },
            }),
          ],
          ["project/createEnvironment", call(Q.createEnvironment, { p: w.projectId, n })],
          ["project/addDomain", call(Q.addDomain, { i: { applicationId: w.applicationId, host: host("p") } })],
          ["project/setEnvironmentVariable", call(Q.setVariable, { a: w.applicationId })],
          ["project/setEnvironmentVariables", call(Q.setVariables, { a: w.otherApplicationId })],
        ].map(async ([name, res]) => record(name as string, await (res as Promise<GqlResponse>))),
      ];
      const [deleted] = await Promise.all(projectRace);
      record("deleteProject", deleted as GqlResponse);

      // An environment goes (after its application) while applications and databases are created in it.
      const v = await tree(org.organizationId);
      await call(Q.deleteApplication, { id: v.otherApplicationId });
      const envRace = await Promise.all([
        call(Q.deleteEnvironment, { id: v.otherEnvironmentId }),
        call(Q.createApplication, {
          i: { environmentId: v.otherEnvironmentId, name: n, source: { type: "docker", dockerImage: "nginx:1" } },
        }),
        call(Q.createDatabase, { i: { environmentId: v.otherEnvironmentId, type: "mysql", name: n, user: "u" } }),
      ]);
      record("deleteEnvironment", envRace[0]);
      record("environment/createApplication", envRace[1]);
      record("environment/createDatabase", envRace[2]);

      // An application goes while domains, variables and a database using it are added.
      const appRace = await Promise.all([
        call(Q.deleteApplication, { id: v.applicationId }),
        call(Q.addDomain, { i: { applicationId: v.applicationId, host: host("a") } }),
        call(Q.setVariable, { a: v.applicationId }),
        call(Q.setVariables, { a: v.applicationId }),
        call(Q.createDatabase, {
          i: { environmentId: v.environmentId, type: "mongodb", name: n, user: "u", applicationIds: [v.applicationId] },
        }),
        call(Q.deploy, { a: v.applicationId }),
      ]);
      record("deleteApplication", appRace[0]);
      ["addDomain", "setEnvironmentVariable", "setEnvironmentVariables", "createDatabase", "deployApplication"].forEach(
        (name, i) => {
          record(`application/${name}`, appRace[i + 1]!);
        },
      );
    }
    console.info("outcomes per scenario:", JSON.stringify(seen));
    const allowed = (scenario: string) =>
      new Set(["ok", "NOT_FOUND", "CONFLICT", ...(scenario.endsWith("createDatabase") ? ["applicationIds.0"] : [])]);
    const bad = Object.entries(seen).flatMap(([scenario, counts]) =>
      Object.keys(counts)
        .filter((o) => !allowed(scenario).has(o))
        .map((o) => `${scenario}: ${counts[o]} × ${o}`),
    );
    expect(bad).toEqual([]);
    expect(messages).toEqual([]);
    // CONFLICT only where the schema documents it: an environment that is not empty is not deleted.
    for (const [scenario, counts] of Object.entries(seen)) {
      if (scenario !== "deleteEnvironment") expect(counts.CONFLICT, scenario).toBeUndefined();
    }
    expect(seen.deleteProject?.ok).toBe(ROUNDS);
    expect(await orphans()).toEqual({ applications: 0, databases: 0, environments: 0, domains: 0 });
  });

  it("keeps a project's last environment when its last two are deleted at once; one of repeated deletes answers", async () => {
    const org = await createOrg(t.db.knex);
    const as = { apiKey: org.owner.apiKey };
    for (let round = 0; round < 10; round++) {
      const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { environments: 2 });
      const [a, b] = await t.db.knex("environments").where({ project_id: projectId }).pluck("id");
      const both = await Promise.all([a, b].map((id) => gql(t.skiff.url, Q.deleteEnvironment, { id }, as)));
      expect(both.map((r) => (r.errors ? r.errors[0]?.extensions?.code : "ok")).sort()).toEqual(["CONFLICT", "ok"]);
      expect(await t.db.knex("environments").where({ project_id: projectId })).toHaveLength(1);
    }
    // The same environment deleted 5 times at once: one answers, the others find it gone; one `ok` entry in the log.
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { environments: 2 });
    const [target] = await t.db.knex("environments").where({ project_id: projectId }).pluck("id");
    const same = await Promise.all(
      Array.from({ length: 5 }, () => gql(t.skiff.url, Q.deleteEnvironment, { id: target }, as)),
    );
    expect(same.map((r) => (r.errors ? r.errors[0]?.extensions?.code : "ok")).sort()).toEqual([
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
      "ok",
    ]);
    const entries = await t.db
      .knex("audit_events")
      .where({ action: "deleteEnvironment" })
      .whereRaw("? = any(target_ids)", [target])
      .pluck("outcome");
    expect(entries.sort()).toEqual(["ok", "refused", "refused", "refused", "refused"]);
  });
});
