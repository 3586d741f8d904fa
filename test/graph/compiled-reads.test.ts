/**
 * Compiled reads (src/reads/compiler.ts): two servers on one database, one answering compilable
 * queries with one SQL statement and one started with `readMode: "executor"` (resolvers), must give the
 * same answer, byte for byte once parsed (same keys in the same order), for every caller — owner, members limited
 * to a project or to one application, another organization's owner, an organization without projects — and for
 * aliases, fragments, `__typename`, `@include`/`@skip`, pagination and errors; the compiled server runs one data
 * statement where the executor runs one per level.
 */
import type { GraphQLObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moduleComputedColumns, moduleReads, moduleRows } from "../../src/modules/index.ts";
import { buildSchema } from "../../src/server/schema.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { type GqlResponse, gql, startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

let db: TestDatabase;
let compiled: RunningSkiff;
let executed: RunningSkiff;
const keys: Record<string, string> = {};
let agentToken: string;
let applicationId: string;
let owner: { userId: string; email: string };

beforeAll(async () => {
  db = await createTestDatabase();
  [compiled, executed] = await Promise.all([
    // No job runners: their periodic statements would be counted with the requests'.
    startTestServer(db.url, { SKIFF_MAX_QUERY_COST: "10000000", SKIFF_WORKER: "false" }),
    startTestServer(db.url, { SKIFF_MAX_QUERY_COST: "10000000", SKIFF_WORKER: "false" }, { readMode: "executor" }),
  ]);
  const shape = {
    environments: 2,
    applicationsPerEnvironment: 3,
    deploymentsPerApplication: 4,
    domainsPerApplication: 2,
    variablesPerApplication: 2,
  };
  const a = await createOrg(db.knex);
  const projectIds = await createProjects(db.knex, a.organizationId, 5, shape);
  const b = await createOrg(db.knex);
  await createProjects(db.knex, b.organizationId, 2, shape);
  const empty = await createOrg(db.knex);
  // Variety the seed does not give: microsecond times, running and unfinished deployments, null ports and https,
  // descriptions, a description with quotes and non-ASCII text.
  await db.knex.raw(`update deployments set started_at = created_at + interval '1.234567 second',
    finished_at = case when title = 'deploy 3' then null else created_at + interval '61.999999 second' end,
    status = case when title = 'deploy 3' then 'running' else status end,
    description = case when title = 'deploy 1' then 'a "quoted" déploiement' end`);
  await db.knex.raw(
    `update domains set port = null, https = false where id in (select id from domains order by id limit 5)`,
  );
  await db.knex.raw(
    `update projects set description = 'Ünïcode\\n"project"', created_at = now() - interval '0.000999 second'
    where id = ?`,
    [projectIds[1]],
  );
  // A name shaped like the JSON around it: REST bodies are cut out of the compiled answer by position, not search.
  await db
    .knex("projects")
    .where("id", projectIds[4])
    .update({ name: 'x\\","pageInfo":{"hasNextPage":true,"endCursor":"Yzp4"},"nodes":[{}]}]}' });
  const [oneApp] = await db.knex("applications").where("project_id", projectIds[3]).orderBy("id", "desc").select("id");
  applicationId = oneApp.id;
  keys.owner = a.owner.apiKey;
  owner = a.owner;
  agentToken = await createAgentTokenFor(db.knex, a.organizationId, a.owner);
  keys.projectMember = (await addMember(db.knex, a.organizationId, "member", { projectIds: [projectIds[2]!] })).apiKey;
  keys.applicationMember = (
    await addMember(db.knex, a.organizationId, "member", { applicationIds: [oneApp.id] })
  ).apiKey;
  keys.admin = (await addMember(db.knex, a.organizationId, "admin")).apiKey;
  keys.otherOwner = b.owner.apiKey;
  keys.emptyOwner = empty.owner.apiKey;
  // A key's first use records its last-used time in the background: let those writes pass before counting.
  await Promise.all(
    Object.values(keys).flatMap((key) =>
      [compiled, executed].map((s) => gql(s.url, "{ __typename }", {}, { apiKey: key })),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(async () => {
  await Promise.all([compiled?.stop(), executed?.stop()]);
  await db?.drop();
});

/** Runs `query` on `server` as `caller`, counting the SQL statements of the request (after authentication). */
async function run(server: RunningSkiff, caller: string, query: string, variables: Record<string, unknown> = {}) {
  let statements = 0;
  const count = () => statements++;
  server.services.knex.on("query", count);
  try {
    const res = await gql(server.url, query, variables, { apiKey: keys[caller]! });
    return { res, statements };
  } finally {
    server.services.knex.off("query", count);
  }
}

/** Runs `query` on both servers and expects the same status and body (key order included). */
async function same(caller: string, query: string, variables: Record<string, unknown> = {}) {
  const [a, b] = await Promise.all([run(compiled, caller, query, variables), run(executed, caller, query, variables)]);
  expect(JSON.stringify(a.res)).toBe(JSON.stringify(b.res));
  return { res: a.res as GqlResponse<Record<string, never>>, compiled: a.statements, executed: b.statements };
}

const TREE = `query Tree { projects(first: 100) { edges { node { id name
  environments { id name applications { id name appName applicationStatus
    deployments(first: 3) { id status title createdAt } domains { host port https } } } } } } }`;

const EVERYTHING = `query Everything($first: Int!, $after: String, $withDomains: Boolean!, $noDeployments: Boolean!) {
  __typename
  page: projects(first: $first, after: $after) {
    __typename totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor __typename }
    edges { __typename cursor node { ...ProjectFields } }
  }
  firstTwo: projects(first: 2) { edges { node { id } } pageInfo { endCursor } }
}
fragment ProjectFields on Project {
  __typename id name description createdAt
  environments { ... on Environment { id name createdAt __typename }
    apps: applications { id port createdAt applicationStatus
      newest: deployments(first: 1) { id }
      deployments @skip(if: $noDeployments) { ...DeploymentFields }
      domains @include(if: $withDomains) { id host port https createdAt __typename }
    }
  }
}
fragment DeploymentFields on Deployment { id status title description createdAt startedAt finishedAt }`;

/** Declared fields with computed ones among them (a decrypted variable, the deploy URL, twice under aliases). */
const COMPUTED = `query Computed { projects(first: 100) { edges { node { id environments { id applications {
  id name url: deployWebhookUrl environmentVariables { key value } again: deployWebhookUrl appName } } } } } }`;

const CALLERS = ["owner", "admin", "projectMember", "applicationMember", "otherOwner", "emptyOwner"];

describe("compiled reads", () => {
  it.each(CALLERS)("answer the bench tree as the resolvers do, in one data statement (%s)", async (caller) => {
    const r = await same(caller, TREE);
    expect(r.res.errors).toBeUndefined();
    // One statement: the compiled read, which looks the key (resolved by the warm-up) up again with its membership
    // (src/server/remembered-callers.ts); the executing server authenticates first, then reads.
    expect(r.compiled).toBe(1);
    expect(r.executed).toBeGreaterThanOrEqual(r.compiled);
  });

  it.each(CALLERS)("follow aliases, fragments, directives and pages as the resolvers do (%s)", async (caller) => {
    const vars = { first: 2, after: null, withDomains: true, noDeployments: false };
    const first = await same(caller, EVERYTHING, vars);
    expect(first.res.errors).toBeUndefined();
    expect(first.compiled).toBe(1);
    const page = (first.res.data as unknown as { page: { pageInfo: { endCursor: string | null } } }).page;
    if (page.pageInfo.endCursor) {
      await same(caller, EVERYTHING, { ...vars, after: page.pageInfo.endCursor, withDomains: false });
    }
    await same(caller, EVERYTHING, { ...vars, first: 100, noDeployments: true });
  });

  it.each(CALLERS)(
    "answer computed fields beside declared ones in the one statement, as the resolvers do (%s)",
    async (caller) => {
      // Decrypted and computed values: their resolvers run on the rows the statement carried (resolved-sites.ts).
      await same(caller, COMPUTED); // a deploy token is created on its first read
      const r = await same(caller, COMPUTED);
      expect(r.res.errors).toBeUndefined();
      expect(r.compiled).toBe(1);
      expect(r.executed).toBeGreaterThan(1);
    },
  );

  it.each(CALLERS)(
    "join the to-one relations of a list's rows on its FROM, answering as the resolvers do (%s)",
    async (caller) => {
      // Each application's project and environment (and the environment's project: a join on a joined row), and
      // each domain's application: left joins on their list's rows instead of a subquery per row.
      const query = `{ projects(first: 100) { nodes { id environments { id applications { id name
        project { id name } environment { id name project { id } } domains { host application { id name } } } } } } }`;
      const sql: string[] = [];
      const onQuery = (q: { sql: string }) => sql.push(q.sql);
      compiled.services.knex.on("query", onQuery);
      let r: Awaited<ReturnType<typeof same>>;
      try {
        r = await same(caller, query);
      } finally {
        compiled.services.knex.off("query", onQuery);
      }
      expect(r.res.errors).toBeUndefined();
      expect(r.compiled).toBe(1);
      expect(sql[0]).toMatch(/left join projects t\d+ on t\d+\.id = t\d+\.project_id/);
      expect(sql[0]).toMatch(/left join environments t\d+ on/);
      expect(sql[0]).toMatch(/left join applications t\d+ on/);
      expect(sql[0]).not.toMatch(/from (projects|environments|applications) t\d+ where t\d+\.id = /);
    },
  );

  it("read, for each computed field, columns of its type's rows, for a field that has a resolver", async () => {
    const schema = buildSchema();
    for (const [type, fields] of Object.entries(moduleComputedColumns)) {
      for (const [field, columns] of Object.entries(fields)) {
        // A computed field: not declared as SQL, answered by its resolver.
        expect(moduleReads[type]?.[field], `${type}.${field}`).toBeUndefined();
        const definition = (schema.getType(type) as GraphQLObjectType | undefined)?.getFields()[field];
        expect(definition?.resolve, `${type}.${field}`).toBeTypeOf("function");
        // The columns exist on the type's rows (types built inside their parent's SQL, without a row source of
        // their own — EnvironmentVariable, DocsRegistration — are checked by the one-statement tests using them:
        // a statement naming a missing column fails and the executor answers, with more statements).
        const source = moduleRows[type];
        if (source && columns.length > 0) {
          await db.knex.raw(`select ${columns.map((c) => `t."${c}"`).join(", ")} from ${source.table} t limit 0`);
        }
      }
    }
  });

  it("leave an operation whose computed field fails to the resolvers, which report it at its path", async () => {
    const [variable] = await db.knex("environment_variables").orderBy("id").limit(1).select("id", "value_encrypted");
    await db.knex("environment_variables").where("id", variable.id).update({ value_encrypted: "v1.broken" });
    try {
      const [a, b] = await Promise.all([run(compiled, "owner", COMPUTED), run(executed, "owner", COMPUTED)]);
      // The same answer but for the error's id (one per error logged).
      const text = (res: unknown) => JSON.stringify(res, (key, v) => (key === "errorId" ? undefined : v));
      expect(text(a.res)).toBe(text(b.res));
      expect(a.res.errors?.map((e) => [e.extensions?.code, e.path?.slice(-3)])).toEqual([
        ["INTERNAL_SERVER_ERROR", ["environmentVariables", 0, "value"]],
      ]);
      expect(a.res.data).toBeNull(); // `value` is non-null: the error nulls up to the nullable root
    } finally {
      await db
        .knex("environment_variables")
        .where("id", variable.id)
        .update({ value_encrypted: variable.valueEncrypted });
    }
  });

  it("shows each caller exactly what it may see", async () => {
    const count = async (caller: string) => {
      const { res } = await run(compiled, caller, TREE);
      type Data = { projects: { edges: Array<{ node: { environments: Array<{ applications: unknown[] }> } }> } };
      const edges = (res.data as unknown as Data).projects.edges;
      return [edges.length, edges.flatMap((e) => e.node.environments.flatMap((x) => x.applications)).length];
    };
    expect(await count("owner")).toEqual([5, 30]);
    expect(await count("projectMember")).toEqual([1, 6]);
    expect(await count("applicationMember")).toEqual([1, 1]);
    expect(await count("otherOwner")).toEqual([2, 12]);
    expect(await count("emptyOwner")).toEqual([0, 0]);
  });

  it("leave what they cannot compile, and errors, to the resolvers", async () => {
    const organization = await same("owner", "{ projects(first: 3) { edges { node { id organization { id } } } } }");
    expect(organization.res.errors).toBeUndefined();
    // The key's lookup and the read in one statement, against authentication + the root field's statement.
    expect([organization.compiled, organization.executed]).toEqual([1, 2]);
    const tooMany = await same("owner", "{ projects(first: 101) { totalCount } }");
    expect(tooMany.res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const badCursor = await same("owner", `{ projects(after: "not-a-cursor") { totalCount } }`);
    expect(badCursor.res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const deployments = await same(
      "owner",
      "{ projects { edges { node { environments { applications { deployments(first: 0) { id } } } } } } }",
    );
    expect(deployments.res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const anonymous = await Promise.all([gql(compiled.url, TREE), gql(executed.url, TREE)]);
    expect(JSON.stringify(anonymous[0])).toBe(JSON.stringify(anonymous[1]));
    expect(anonymous[0].errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("serve the REST rows over the same operations (the agent API's projects, pages and all)", async () => {
    const get = async (server: RunningSkiff, path: string) => {
      const res = await fetch(`${server.url}${path}`, { headers: { "x-api-key": agentToken } });
      return { status: res.status, contentType: res.headers.get("content-type"), body: await res.text() };
    };
    const paths = [
      "/api/agent/projects",
      "/api/agent/projects?limit=2",
      "/api/agent/projects?limit=0",
      `/api/agent/application?applicationId=${applicationId}`,
      `/api/agent/deployments?applicationId=${applicationId}&limit=3`,
      "/api/agent/application?applicationId=app_00000000000000000000000000",
    ];
    for (const path of paths) {
      const [a, b] = await Promise.all([get(compiled, path), get(executed, path)]);
      expect(a, path).toEqual(b);
    }
    const projects = await get(compiled, "/api/agent/projects");
    expect(projects.status).toBe(200);
    expect(projects.contentType).toBe("application/json; charset=utf-8");
    expect(JSON.parse(projects.body).map((p: { name: string }) => p.name)).toContain(
      'x\\","pageInfo":{"hasNextPage":true,"endCursor":"Yzp4"},"nodes":[{}]}]}',
    );
  });

  it("answer a signed-in caller as the resolvers do, confirming the session inside the read", async () => {
    const cookie = await sessionFor(db.knex, compiled.url, owner);
    const counted = async (server: RunningSkiff, query: string) => {
      let statements = 0;
      const count = () => statements++;
      server.services.knex.on("query", count);
      try {
        const res = await gql(server.url, query, {}, { cookie });
        return { body: JSON.stringify(res), statements };
      } finally {
        server.services.knex.off("query", count);
      }
    };
    // The first request of the cookie goes through better-auth on both servers.
    for (const server of [compiled, executed]) expect((await counted(server, "{ __typename }")).statements).toBe(1);
    for (const query of ["{ viewer { id } }", "{ organizations { id name } }", TREE]) {
      const [a, b] = [await counted(compiled, query), await counted(executed, query)];
      expect(a.body).toBe(b.body);
      // The compiled server remembers the cookie (src/auth/credentials/session.ts): one statement reads and confirms the session;
      // the executed one asks better-auth (its own pool), then reads the session with its memberships, then the fields.
      expect(a.statements, query).toBe(1);
      expect(b.statements, query).toBeGreaterThanOrEqual(a.statements);
    }
  });

  it("answer each request's variables when a remembered key repeats an operation", async () => {
    // On the compiled server alone: both servers share this process's remembered keys, and the other one renews them.
    const query =
      "query($id: ID!, $n: Int) { project(id: $id) { id name } projects(first: $n) { edges { node { id } } } }";
    const [first, second] = (await db.knex("projects").orderBy("id").limit(2).select("id")) as Array<{ id: string }>;
    for (const [id, n] of [
      [first!.id, 1],
      [second!.id, 2],
      [first!.id, 2],
      [second!.id, 1],
    ] as const) {
      const { res } = await run(compiled, "owner", query, { id, n });
      const data = res.data as unknown as { project: { id: string }; projects: { edges: unknown[] } };
      expect(data.project.id).toBe(id);
      expect(data.projects.edges).toHaveLength(n);
    }
  });

  it("send PostgreSQL's JSON text as the HTTP body, unparsed", async () => {
    const res = await fetch(`${compiled.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${keys.owner}` },
      body: JSON.stringify({ query: "{ projects(first: 1) { totalCount } }" }),
    });
    // Compact JSON as the statement concatenated it (PostgreSQL's JSON functions would write `"projects" : {…}`).
    expect(await res.text()).toBe('{"data":{"projects":{"totalCount":5}}}\n');
  });
});
