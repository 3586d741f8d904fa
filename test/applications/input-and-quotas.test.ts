/**
 * The management mutations' edges, against a real server and PostgreSQL: bad input on every new mutation answers
 * BAD_USER_INPUT with `fieldErrors` (never a 500), on HTTP and over graphql-ws alike; plan quotas hold at the edge
 * (the last allowed create succeeds, the next fails naming the quota) and under 10 concurrent creates; API keys act
 * with their creator's role.
 */
import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { newId } from "../../src/db/ids.ts";
import { addMember, createOrg, createPlan, createProjects, createRegistry } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

/** An organization on `plan` with a registry and one project; its environment and an application in it. */
async function world(plan?: string) {
  const org = await createOrg(t.db.knex, plan);
  await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
  const app = await t.db.knex("applications").where({ project_id: projectId }).first("id");
  const domainId = newId("domain");
  await t.db.knex("domains").insert({
    id: domainId,
    organization_id: org.organizationId,
    application_id: app.id,
    host: `d${domainId.slice(-8)}.example.test`,
  });
  const databaseId = (
    await gql<{ createDatabase: { database: { id: string } } }>(
      t.skiff.url,
      "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }",
      { i: { environmentId: env.id, type: "postgres", name: "d", user: "u" } },
      { apiKey: org.owner.apiKey },
    )
  ).data?.createDatabase.database.id;
  return {
    org,
    projectId: projectId!,
    environmentId: env.id as string,
    applicationId: app.id as string,
    domainId,
    databaseId: databaseId!,
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** One bad call per new mutation, and the field its error must name ("": the input as a whole, `formErrors`). */
const BAD_INPUT: Array<{
  name: string;
  query: string;
  variables: (w: World) => Record<string, unknown>;
  field: string;
}> = [
  {
    name: "createApplication",
    query: "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }",
    variables: (w) => ({ i: { environmentId: w.environmentId, name: " ", source: { type: "github" }, port: 0 } }),
    field: "source.repo",
  },
  {
    name: "updateApplication",
    query: "mutation($id: ID!, $i: UpdateApplicationInput!) { updateApplication(id: $id, input: $i) { id } }",
    variables: (w) => ({ id: w.applicationId, i: { port: 70000, healthPath: "no-slash" } }),
    field: "healthPath",
  },
  {
    // (An id that cannot be stored names nothing: NOT_FOUND, test/hardening/wire-format.test.ts.)
    name: "unsetEnvironmentVariable (a key that cannot be stored)",
    query: "mutation($a: ID!, $key: String!) { unsetEnvironmentVariable(applicationId: $a, key: $key) { id } }",
    variables: (w) => ({ a: w.applicationId, key: "\u0000" }),
    field: "key",
  },
  {
    name: "setEnvironmentVariable",
    query: 'mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "1 BAD", value: "x") { id } }',
    variables: (w) => ({ a: w.applicationId }),
    field: "key",
  },
  {
    name: "setEnvironmentVariables",
    query:
      "mutation($a: ID!, $v: [EnvironmentVariableInput!]) { setEnvironmentVariables(applicationId: $a, variables: $v) { setKeys } }",
    variables: (w) => ({
      a: w.applicationId,
      v: [
        { key: "A", value: "1" },
        { key: "A", value: "2" },
      ],
    }),
    field: "variables.1.key",
  },
  {
    name: "setEnvironmentVariables (an invalid name in the list)",
    query:
      "mutation($a: ID!, $v: [EnvironmentVariableInput!]) { setEnvironmentVariables(applicationId: $a, variables: $v) { setKeys } }",
    variables: (w) => ({
      a: w.applicationId,
      v: [
        { key: "OK", value: "1" },
        { key: "9NO", value: "2" },
      ],
    }),
    field: "variables.1.key",
  },
  {
    name: "unsetEnvironmentVariable",
    query: 'mutation($a: ID!) { unsetEnvironmentVariable(applicationId: $a, key: "a-b") { id } }',
    variables: (w) => ({ a: w.applicationId }),
    field: "key",
  },
  {
    name: "createDatabase",
    query: "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }",
    variables: (w) => ({ i: { environmentId: w.environmentId, type: "postgres", name: "bad name", user: "9u" } }),
    field: "name",
  },
  {
    name: "rotateDatabasePassword",
    query: 'mutation($id: ID!) { rotateDatabasePassword(id: $id, password: "") { database { id } } }',
    variables: (w) => ({ id: w.databaseId }),
    field: "password",
  },
  {
    name: "addDomain",
    query: "mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }",
    variables: (w) => ({ i: { applicationId: w.applicationId, host: "https://x.example.com/path" } }),
    field: "host",
  },
  {
    name: "updateDomain",
    query: "mutation($id: ID!, $i: UpdateDomainInput!) { updateDomain(id: $id, input: $i) { id } }",
    variables: (w) => ({ id: w.domainId, i: { port: -1 } }),
    field: "port",
  },
  {
    name: "removeDomain",
    query: 'mutation($a: ID!) { removeDomain(applicationId: $a, host: "not a host") { id } }',
    variables: (w) => ({ a: w.applicationId }),
    field: "host",
  },
  {
    name: "createEnvironment",
    query: 'mutation($p: ID!) { createEnvironment(projectId: $p, name: "-bad name") { id } }',
    variables: (w) => ({ p: w.projectId }),
    field: "name",
  },
  {
    name: "renameEnvironment",
    query: 'mutation($id: ID!) { renameEnvironment(id: $id, name: "") { id } }',
    variables: (w) => ({ id: w.environmentId }),
    field: "name",
  },
];

/** Runs `query` over graphql-ws with `apiKey`; resolves to the first result or error. */
function overWebSocket(query: string, variables: Record<string, unknown>, apiKey: string): Promise<GqlResponse> {
  const client = createClient({
    url: `${t.skiff.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${apiKey}` },
  });
  return new Promise<GqlResponse>((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (msg) => resolve({ status: 0, ...(msg as object) } as GqlResponse),
        error: (e) => resolve({ status: 0, errors: Array.isArray(e) ? e : [{ message: String(e) }] }),
        complete: () => undefined,
      },
    );
  }).finally(() => client.dispose());
}

describe("bad input", () => {
  it("every new mutation answers BAD_USER_INPUT naming the field, on HTTP and over graphql-ws", async () => {
    const w = await world();
    const problems: string[] = [];
    for (const c of BAD_INPUT) {
      const vars = c.variables(w);
      for (const [surface, res] of [
        ["http", await gql(t.skiff.url, c.query, vars, { apiKey: w.org.owner.apiKey })],
        ["ws", await overWebSocket(c.query, vars, w.org.owner.apiKey)],
      ] as const) {
        const ext = res.errors?.[0]?.extensions as
          | { code?: string; fieldErrors?: Record<string, string[]>; formErrors?: string[] }
          | undefined;
        if (ext?.code !== "BAD_USER_INPUT") {
          problems.push(`${c.name} (${surface}): ${JSON.stringify(res.errors ?? res.data)}`);
        } else if (c.field ? !ext.fieldErrors?.[c.field]?.length : !ext.formErrors?.length) {
          problems.push(`${c.name} (${surface}): no error for "${c.field}" in ${JSON.stringify(ext)}`);
        }
        if (surface === "http" && res.status >= 500) problems.push(`${c.name}: HTTP ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
    // Nothing was half-written by the refused calls.
    expect(await t.db.knex("environment_variables").where({ application_id: w.applicationId })).toEqual([]);
  });
});

const CREATE_APP = "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }";

describe("plan quotas", () => {
  it("the last allowed application, database and domain succeed; the next fail naming the quota", async () => {
    // world() holds 1 application, 1 domain and 1 database.
    const plan = await createPlan(t.db.knex, { applications: 2, databases: 2, domains: 2 });
    const w = await world(plan);
    const key = { apiKey: w.org.owner.apiKey };
    const app = {
      i: { environmentId: w.environmentId, name: "q", source: { type: "docker", dockerImage: "nginx:1" } },
    };
    const db = { i: { environmentId: w.environmentId, type: "mysql", name: "q", user: "q" } };
    const DB = "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }";
    const DOMAIN = "mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }";
    const domain = (n: number) => ({
      i: { applicationId: w.applicationId, host: `q${n}-${w.domainId.slice(-6)}.example.test` },
    });
    expect((await gql(t.skiff.url, CREATE_APP, app, key)).errors).toBeUndefined();
    expect((await gql(t.skiff.url, DB, db, key)).errors).toBeUndefined();
    expect((await gql(t.skiff.url, DOMAIN, domain(1), key)).errors).toBeUndefined();
    for (const [query, vars, quota] of [
      [CREATE_APP, app, "applications"],
      [DB, db, "databases"],
      [DOMAIN, domain(2), "domains"],
    ] as const) {
      const res = await gql(t.skiff.url, query, vars, key);
      expect(res.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", quota, limit: 2 });
      expect(res.errors?.[0]?.message).toBe(`Plan quota reached: ${quota} (2 of 2 on plan "${plan}")`);
    }
  });

  it("10 concurrent creates of each kind take exactly the free slots", async () => {
    const plan = await createPlan(t.db.knex, { applications: 5, databases: 4, domains: 6 });
    const w = await world(plan); // 1 application, 1 database, 1 domain already
    const key = { apiKey: w.org.owner.apiKey };
    const run = (query: string, vars: (n: number) => Record<string, unknown>) =>
      Promise.all(Array.from({ length: 10 }, (_, n) => gql(t.skiff.url, query, vars(n), key)));
    const [apps, dbs, domains] = await Promise.all([
      run(CREATE_APP, (n) => ({
        i: { environmentId: w.environmentId, name: `c${n}`, source: { type: "docker", dockerImage: "nginx:1" } },
      })),
      run("mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }", (n) => ({
        i: { environmentId: w.environmentId, type: "mongodb", name: `c${n}`, user: "u" },
      })),
      run("mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }", (n) => ({
        i: { applicationId: w.applicationId, host: `c${n}-${w.domainId.slice(-6)}.example.test` },
      })),
    ]);
    const outcome = (answers: GqlResponse[], quota: string) => {
      const failed = answers.filter((a) => a.errors);
      for (const f of failed) expect(f.errors?.[0]?.message).toMatch(new RegExp(`^Plan quota reached: ${quota} `));
      return answers.length - failed.length;
    };
    expect(outcome(apps, "applications")).toBe(4);
    expect(outcome(dbs, "databases")).toBe(3);
    expect(outcome(domains, "domains")).toBe(5);
    const count = async (table: string) =>
      Number((await t.db.knex(table).where({ organization_id: w.org.organizationId }).count("* as n").first())?.n);
    expect([await count("applications"), await count("databases"), await count("domains")]).toEqual([5, 4, 6]);
  });
});

describe("API keys", () => {
  it("act with their creator's role: an admin's key manages, a member's key is refused or sees nothing", async () => {
    const w = await world();
    const admin = await addMember(t.db.knex, w.org.organizationId, "admin");
    const granted = await addMember(t.db.knex, w.org.organizationId, "member", { projectIds: [w.projectId] });
    const [otherProject] = await createProjects(t.db.knex, w.org.organizationId, 1);
    const notGranted = await addMember(t.db.knex, w.org.organizationId, "member", { projectIds: [otherProject!] });
    const other = await createOrg(t.db.knex);
    const SET = 'mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "K", value: "v") { id } }';
    const code = async (apiKey: string) =>
      (await gql(t.skiff.url, SET, { a: w.applicationId }, { apiKey })).errors?.[0]?.extensions?.code ?? "ok";
    expect(await code(admin.apiKey)).toBe("ok");
    expect(await code(granted.apiKey)).toBe("FORBIDDEN");
    expect(await code(notGranted.apiKey)).toBe("NOT_FOUND");
    expect(await code(other.owner.apiKey)).toBe("NOT_FOUND");
    expect((await gql(t.skiff.url, SET, { a: w.applicationId })).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});
