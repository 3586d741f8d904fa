/**
 * Authentication and data in one round trip (src/server/remembered-callers.ts): a key, agent token or session
 * cookie an instance resolved before is remembered, and the read confirms it in its own statement. Three instances on one database: A remembers,
 * B makes the changes (as another instance of a cluster would), C starts with `readMode: "executor"` — it
 * remembers nothing and authenticates every request with its own statement — and is the oracle: after every kind of
 * change to a remembered caller, A's next answer (status and body) must be C's. Spec: "Deleting a key takes effect
 * at once … callers using it then receive 401".
 */
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { headerView } from "../../src/server/authenticate.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects, type SeededUser } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

/** A valid import source (spec: Site import). */
const DOCKER = { type: "docker", dockerImage: "nginx:1.27" };

/** Agent API requests per minute per token on the three instances. */
const AGENT_LIMIT = 8;

let db: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
let c: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
let projects: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  const env = { SKIFF_WORKER: "false", SKIFF_AGENT_RATE_LIMIT: String(AGENT_LIMIT) };
  a = await startTestServer(db.url, env);
  b = await startTestServer(db.url, env);
  c = await startTestServer(db.url, env, { readMode: "executor" });
  org = await createOrg(db.knex);
  projects = await createProjects(db.knex, org.organizationId, 3);
});
afterAll(async () => {
  for (const s of [a, b, c]) await s?.stop();
  await db?.drop();
});

const PROJECTS = "{ projects(first: 10) { edges { node { id } } } }";
const WEBHOOKS = "query($org: ID!) { webhooks(organizationId: $org) { webhookUuid } }";

/** Status and body of `query` on `server` with `apiKey`, the request id left out. */
async function answer(server: RunningSkiff, apiKey: string, query: string, variables: Record<string, unknown> = {}) {
  const { status, ...body } = await gql(server.url, query, variables, { apiKey });
  return { status, body };
}

/** What `request` answers and the SQL statements `server` ran meanwhile. */
async function withStatements<T extends object>(server: RunningSkiff, request: () => Promise<T>) {
  const sql: string[] = [];
  const onQuery = (q: { sql: string }) => sql.push(q.sql);
  server.services.knex.on("query", onQuery);
  try {
    return { ...(await request()), sql };
  } finally {
    server.services.knex.off("query", onQuery);
  }
}

/** A new admin of the organization whose key instance A has resolved (and so remembers). */
async function rememberedAdmin(): Promise<SeededUser> {
  const admin = await addMember(db.knex, org.organizationId, "admin");
  expect((await answer(a, admin.apiKey, PROJECTS)).status).toBe(200);
  return admin;
}

/** `mutation` on instance B as the owner; fails the test on errors. */
async function onB(mutation: string, variables: Record<string, unknown>) {
  const res = await gql(b.url, mutation, variables, { apiKey: org.owner.apiKey });
  expect(res.errors).toBeUndefined();
  return res.data as Record<string, unknown>;
}

/**
 * Changes to a remembered caller's member row and plan, made as another instance of a cluster would, with the query
 * whose answer they change: [change, apply to the caller's user, query].
 */
const STANDING_CHANGES: Array<[string, (u: SeededUser) => Promise<unknown>, string]> = [
  ["the member removed", (u) => onB("mutation($m: ID!) { removeMember(memberId: $m) }", { m: u.memberId }), PROJECTS],
  [
    "the role lowered to a member limited to one project",
    async (u) => {
      await onB("mutation($m: ID!) { updateMemberRole(memberId: $m, role: member) { id } }", { m: u.memberId });
      await onB("mutation($m: ID!, $p: ID) { grantAccess(input: { memberId: $m, projectId: $p }) { id } }", {
        m: u.memberId,
        p: projects[1],
      });
    },
    PROJECTS,
  ],
  [
    "the organization's plan without webhooks",
    () => db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_free" }),
    WEBHOOKS,
  ],
];

describe("a remembered API key", () => {
  it("reads with one statement that looks the key up with the data", async () => {
    const admin = await rememberedAdmin();
    const res = await withStatements(a, () => answer(a, admin.apiKey, PROJECTS));
    expect(res.status).toBe(200);
    const ids = (res.body.data as { projects: { edges: Array<{ node: { id: string } }> } }).projects.edges;
    expect(ids.map((e) => e.node.id).sort()).toEqual([...projects].sort());
    expect(res.sql).toHaveLength(1);
    expect(res.sql[0]).toMatch(/from api_keys k/);
    expect(res.sql[0]).toMatch(/from projects/);
  });

  it("is found as `Authorization: Bearer` too, then deleted on another instance → 401 at once", async () => {
    const admin = await rememberedAdmin();
    const bearer = async (server: RunningSkiff) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `bearer ${admin.apiKey}` },
        body: JSON.stringify({ query: PROJECTS }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const res = await withStatements(a, () => bearer(a));
    expect(res.status).toBe(200);
    expect(res.sql).toHaveLength(1);
    expect(res.sql[0]).toMatch(/from api_keys k/);
    await onB("mutation($id: ID!) { deleteApiKey(id: $id) }", { id: admin.apiKeyId });
    const refused = await bearer(a);
    expect(refused.status).toBe(401);
    expect(refused).toEqual(await bearer(c));
  });

  // Every kind of request a deleted key can send: each must answer 401 on its very next request.
  const requests: Array<[string, string]> = [
    ["a compiled query", PROJECTS],
    ["a query the compiler does not take", "{ __typename }"],
    ["a mutation", 'mutation { createApiKey(name: "x") { apiKey { id } } }'],
    ["an invalid query", "{ projects(first: 10) { nope } }"],
    ["an unparsable query", "{ projects("],
  ];
  for (const [kind, query] of requests) {
    it(`deleted on another instance: ${kind} answers 401 at once`, async () => {
      const admin = await rememberedAdmin();
      await onB("mutation($id: ID!) { deleteApiKey(id: $id) }", { id: admin.apiKeyId });
      const res = await answer(a, admin.apiKey, query);
      expect(res.status).toBe(401);
      expect(res.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
      expect(res.body.data).toBeUndefined();
      expect(await answer(a, admin.apiKey, query)).toEqual(res);
    });
  }

  // Every way a remembered caller's standing can change; A's next answer is the oracle's.
  const changes: Array<[string, (admin: SeededUser) => Promise<unknown>, string]> = [
    ["the key disabled", (u) => db.knex("api_keys").where({ id: u.apiKeyId }).update({ enabled: false }), PROJECTS],
    [
      "the key expired",
      (u) =>
        db
          .knex("api_keys")
          .where({ id: u.apiKeyId })
          .update({ expires_at: db.knex.raw("now() - interval '1 second'") }),
      PROJECTS,
    ],
    ...STANDING_CHANGES,
    [
      "the role lowered to member (no grants: every project)",
      (u) => onB("mutation($m: ID!) { updateMemberRole(memberId: $m, role: member) { id } }", { m: u.memberId }),
      "{ viewer { role activeOrganization { id } } projects(first: 10) { edges { node { id } } } }",
    ],
  ];
  for (const [change, apply, query] of changes) {
    it(`after ${change} on another instance, answers as an instance that remembers nothing`, async () => {
      await db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_unlimited" });
      const admin = await rememberedAdmin();
      const variables = { org: org.organizationId };
      const before = await answer(a, admin.apiKey, query, variables);
      expect(before).toEqual(await answer(c, admin.apiKey, query, variables));
      await apply(admin);
      const after = await answer(a, admin.apiKey, query, variables);
      expect(after).not.toEqual(before);
      expect(after).toEqual(await answer(c, admin.apiKey, query, variables));
      // And again, now that A has resolved the key anew.
      expect(await answer(a, admin.apiKey, query, variables)).toEqual(after);
    });
  }
});

/**
 * Changes to a standing beyond the member row (its grants, a granted application's project, the plan's features):
 * each grows the member's standing version in its own transaction (migration 20261126100000_member_standing_versions),
 * which is what A's confirming statement compares — it reads the key and the member row alone.
 */
describe("a remembered caller whose standing changes beyond its member row", () => {
  /** A member (`role`, default `member`) limited to `grants`, with an API key and an agent token both remembered by A. */
  async function rememberedMember(grants: Standing) {
    const member = await addMember(db.knex, org.organizationId, grants.role ?? "member", grants);
    const token = await createAgentTokenFor(db.knex, org.organizationId, member);
    expect((await answer(a, member.apiKey, PROJECTS)).status).toBe(200);
    expect((await rest(a, token, "/api/agent/projects")).status).toBe(200);
    return { member, token };
  }

  /** What A answers for the member's key (on /graphql, `query`) and token (the agent API), checked equal to C's. */
  async function answersOf(key: string, token: string, query: string) {
    const graphql = await answer(a, key, query, { org: org.organizationId });
    expect(graphql).toEqual(await answer(c, key, query, { org: org.organizationId }));
    const agent = await rest(a, token, "/api/agent/projects");
    expect(agent.status).toBe(200);
    expect(agent.body).toEqual((await rest(c, token, "/api/agent/projects")).body);
    return { graphql, agent: agent.body };
  }

  /** A member's role and grants. */
  type Standing = { role?: "admin" | "member"; projectIds?: string[]; applicationIds?: string[] };
  /** [change, the member's standing, the change (undone by the function it returns, if any), query]. */
  const cases: Array<[string, () => Standing, (m: SeededUser) => Promise<unknown>, string]> = [
    [
      "a grant revoked on another instance",
      () => ({ projectIds: [projects[0]!, projects[1]!] }),
      async (m) => {
        const grant = await db.knex("member_grants").where({ member_id: m.memberId, project_id: projects[1] }).first();
        await onB("mutation($g: ID!) { revokeAccess(grantId: $g) }", { g: grant.id });
      },
      PROJECTS,
    ],
    [
      "a grant added on another instance",
      () => ({ projectIds: [projects[0]!] }),
      (m) =>
        onB("mutation($m: ID!, $p: ID) { grantAccess(input: { memberId: $m, projectId: $p }) { id } }", {
          m: m.memberId,
          p: projects[2],
        }),
      PROJECTS,
    ],
    [
      "the granted application moved to another project",
      () => ({ applicationIds: [application] }),
      async () => {
        await db.knex("applications").where({ id: application }).update({ project_id: projects[1] });
        return () => db.knex("applications").where({ id: application }).update({ project_id: projects[0] });
      },
      PROJECTS,
    ],
    [
      "the plan's features changed",
      () => ({ role: "admin" }),
      async () => {
        const plan = await db.knex("plans").where({ id: "plan_unlimited" }).first();
        await db
          .knex("plans")
          .where({ id: plan.id })
          .update({ features: ["ai_assistant"] });
        return () => db.knex("plans").where({ id: plan.id }).update({ features: plan.features });
      },
      WEBHOOKS,
    ],
  ];
  let application: string;
  beforeEach(async () => {
    await db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_unlimited" });
  });
  beforeAll(async () => {
    application = newId("application");
    const environment = await db.knex("environments").where({ project_id: projects[0] }).first();
    await db.knex("applications").insert({
      id: application,
      organization_id: org.organizationId,
      project_id: projects[0],
      environment_id: environment.id,
      name: "granted",
      app_name: `granted-${application.slice(-8)}`,
      source_type: "docker",
      source: JSON.stringify({ dockerImage: "nginx:1.27" }),
      build_type: "dockerfile",
    });
  });
  for (const [change, grants, apply, query] of cases) {
    it(`after ${change}, its key and its agent token answer as an instance that remembers nothing`, async () => {
      const { member, token } = await rememberedMember(grants());
      const before = await answersOf(member.apiKey, token, query);
      const undo = await apply(member);
      try {
        const after = await answersOf(member.apiKey, token, query);
        expect(after).not.toEqual(before);
        // And again, now that A has resolved both anew.
        expect(await answersOf(member.apiKey, token, query)).toEqual(after);
      } finally {
        if (typeof undo === "function") await undo();
      }
    });
  }
});

/** Status and JSON body of `path` on `server` with credential `key` (`x-api-key`). */
async function rest(
  server: RunningSkiff,
  key: string,
  path: string,
  init: { method?: string; body?: Record<string, unknown> } = {},
) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "x-api-key": key, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("REST rows with a remembered credential", () => {
  beforeEach(async () => {
    await db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_unlimited" });
  });

  it("agent API: one statement that resolves and counts the token with the data; revoked elsewhere → 401 at once", async () => {
    const admin = await addMember(db.knex, org.organizationId, "admin");
    const token = await createAgentTokenFor(db.knex, org.organizationId, admin);
    const first = await rest(a, token, "/api/agent/projects");
    expect(first.status).toBe(200);
    // Within the minute the token's last use is recorded: the next request is its one statement only, then the
    // call's audit entry (every agent API call is a sensitive read, docs/audit-log.md).
    const again = await withStatements(a, () => rest(a, token, "/api/agent/projects"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.sql).toHaveLength(2);
    for (const part of [/from agent_tokens t/, /insert into agent_rate_limits/, /from projects/])
      expect(again.sql[0]).toMatch(part);
    expect(again.sql[1]).toMatch(/^insert into "audit_events"/);
    const revoked = await gql(b.url, "mutation { revokeAgentToken }", {}, { apiKey: admin.apiKey });
    expect(revoked.data).toEqual({ revokeAgentToken: true });
    const refused = await rest(a, token, "/api/agent/projects");
    expect(refused.status).toBe(401);
    expect(refused).toEqual(await rest(c, token, "/api/agent/projects"));
  });

  it("agent API: counts every request against the rate limit and refuses past it", async () => {
    const admin = await addMember(db.knex, org.organizationId, "admin");
    const token = await createAgentTokenFor(db.knex, org.organizationId, admin);
    const statuses: number[] = [];
    for (let i = 0; i < AGENT_LIMIT + 2; i++) statuses.push((await rest(a, token, "/api/agent/projects")).status);
    expect(statuses).toEqual([...Array(AGENT_LIMIT).fill(200), 401, 401]);
    // Over its limit the token is no longer remembered: refused by its count alone, no read of the data; the refused
    // call's audit entry is the one other statement.
    const over = await withStatements(a, () => rest(a, token, "/api/agent/projects"));
    expect(over.status).toBe(401);
    expect(over.body.message).toMatch(/Rate limit exceeded/);
    expect(over.sql).toHaveLength(2);
    expect(over.sql[0]).toMatch(/insert into agent_rate_limits/);
    expect(over.sql[1]).toMatch(/insert into "audit_events"/);
    expect(over.sql.join("\n")).not.toMatch(/from projects/);
  });

  const rows: Array<[string, string, { method?: string; body?: Record<string, unknown> }]> = [
    ["a read", "/api/site-import", {}],
    ["bad input", "/api/site-import?limit=nope", {}],
    ["bad input to a mutation", "/api/site-import", { method: "POST", body: {} }],
    ["a mutation", "/api/site-import", { method: "POST", body: { name: "remembered-import", source: DOCKER } }],
  ];
  for (const [kind, path, init] of rows) {
    it(`site import API, key deleted on another instance: ${kind} answers 401 at once, as the oracle does`, async () => {
      const admin = await rememberedAdmin();
      expect((await rest(a, admin.apiKey, "/api/site-import")).status).toBe(200);
      await onB("mutation($id: ID!) { deleteApiKey(id: $id) }", { id: admin.apiKeyId });
      const body =
        init.body && Object.keys(init.body).length ? { ...init.body, organizationId: org.organizationId } : init.body;
      const refused = await rest(a, admin.apiKey, path, { ...init, body });
      expect(refused.status).toBe(401);
      expect(refused).toEqual(await rest(c, admin.apiKey, path, { ...init, body }));
      expect(await db.knex("site_imports").where({ name: "remembered-import" }).first()).toBeUndefined();
    });
  }
});

/**
 * Session cookies (src/auth/credentials/session.ts): a cookie better-auth verified on instance A is remembered there, and
 * A's next reads confirm the session inside their own statement — no better-auth lookup, no membership query.
 * After every kind of change, A's next answer must be C's (C remembers nothing: every request goes through
 * better-auth).
 */
describe("a remembered session cookie", () => {
  beforeEach(async () => {
    await db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_unlimited" });
  });

  /** Status and body of `query` on `server` with the session `cookie`. */
  async function asSession(server: RunningSkiff, cookie: string, query: string, vars: Record<string, unknown> = {}) {
    const { status, ...body } = await gql(server.url, query, vars, { cookie });
    return { status, body };
  }

  /** A new admin of the organization signed in, whose cookie instance A has read (and so remembers). */
  async function signedInAdmin(): Promise<{ user: SeededUser; cookie: string }> {
    const user = await addMember(db.knex, org.organizationId, "admin");
    const cookie = await sessionFor(db.knex, b.url, user);
    expect((await asSession(a, cookie, PROJECTS)).status).toBe(200);
    return { user, cookie };
  }

  /** The SQL texts every pg client of this process sends while `request` runs. */
  async function allStatements<T>(request: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    const sql: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      sql.push(typeof config === "string" ? config : (config?.text ?? ""));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      return { result: await request(), sql };
    } finally {
      pg.Client.prototype.query = query;
    }
  }

  it("reads with one statement that confirms the session with the data, for compiled and executed operations", async () => {
    const { cookie } = await signedInAdmin();
    // Statements about credentials, sessions or memberships (other tests' background writes are left out).
    const callerSql = (sql: string[]) => sql.filter((t) => /\b(sessions|users|jwks|members|api_keys)\b/.test(t));
    const read = await allStatements(() => asSession(a, cookie, PROJECTS));
    expect(read.result).toEqual(await asSession(c, cookie, PROJECTS));
    expect(read.result.status).toBe(200);
    expect(callerSql(read.sql)).toHaveLength(1);
    expect(read.sql[0]).toMatch(/from sessions s/);
    expect(read.sql[0]).toMatch(/from projects/);
    // An operation the compiler does not take: the session resolved in one statement, then executed.
    const executed = await allStatements(() => asSession(a, cookie, "{ __typename viewer { role } }"));
    expect(executed.result).toEqual(await asSession(c, cookie, "{ __typename viewer { role } }"));
    expect(callerSql(executed.sql)).toHaveLength(1);
  });

  it("refuses a cookie whose signature was changed, though its session is remembered", async () => {
    const { cookie } = await signedInAdmin();
    const [name, value] = cookie.split(/=(.*)/s) as [string, string];
    const decoded = decodeURIComponent(value);
    const signature = decoded.slice(decoded.lastIndexOf(".") + 1);
    const forged = `${decoded.slice(0, decoded.lastIndexOf(".") + 1)}${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    const tampered = `${name}=${encodeURIComponent(forged)}`;
    const res = await asSession(a, tampered, PROJECTS);
    expect(res.status).toBe(401);
    expect(res).toEqual(await asSession(c, tampered, PROJECTS));
    // Named twice (the remembered one and another): left to better-auth, which reads the first.
    const twice = await asSession(a, `${tampered}; ${cookie}`, PROJECTS);
    expect(twice).toEqual(await asSession(c, `${tampered}; ${cookie}`, PROJECTS));
  });

  // Every way a remembered session's caller can change; A's next answer is the oracle's.
  const changes: Array<[string, (u: SeededUser, cookie: string) => Promise<unknown>, string]> = [
    [
      "signed out on another instance",
      (_u, cookie) => fetch(`${b.url}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: b.url } }),
      PROJECTS,
    ],
    [
      "the session expired",
      (u) =>
        db
          .knex("sessions")
          .where({ user_id: u.userId })
          .update({ expires_at: db.knex.raw("now() - interval '1 second'") }),
      PROJECTS,
    ],
    ...STANDING_CHANGES,
    [
      "a membership of another organization added, then made active on another instance",
      async (u, cookie) => {
        const other = await createOrg(db.knex);
        await db.knex("members").insert({
          id: newId("member"),
          organization_id: other.organizationId,
          user_id: u.userId,
          role: "member",
        });
        const res = await gql(
          b.url,
          "mutation($id: ID!) { setActiveOrganization(id: $id) { role } }",
          {
            id: other.organizationId,
          },
          { cookie },
        );
        expect(res.errors).toBeUndefined();
      },
      "{ viewer { role activeOrganization { id } } organizations { id } projects(first: 10) { edges { node { id } } } }",
    ],
  ];
  for (const [change, apply, query] of changes) {
    it(`after ${change}, answers as an instance that remembers nothing`, async () => {
      const { user, cookie } = await signedInAdmin();
      const variables = { org: org.organizationId };
      const before = await asSession(a, cookie, query, variables);
      expect(before).toEqual(await asSession(c, cookie, query, variables));
      await apply(user, cookie);
      const after = await asSession(a, cookie, query, variables);
      expect(after).not.toEqual(before);
      expect(after).toEqual(await asSession(c, cookie, query, variables));
      expect(await asSession(a, cookie, query, variables)).toEqual(after);
    });
  }

  it("a user JWT: verified once, then one statement per request; a membership removed shows at once", async () => {
    const { user, cookie } = await signedInAdmin();
    const issued = await fetch(`${a.url}/api/auth/token`, { headers: { cookie } });
    const { token } = (await issued.json()) as { token: string };
    const viaJwt = (server: RunningSkiff) => answer(server, token, PROJECTS);
    const first = await viaJwt(a);
    expect(first.status).toBe(200);
    expect(first).toEqual(await viaJwt(c));
    const again = await allStatements(() => viaJwt(a));
    expect(again.result).toEqual(first);
    // The user and its memberships in one statement; no key set read, no membership query of the scope.
    expect(again.sql.filter((t) => /\b(sessions|users|jwks|members|api_keys)\b/.test(t))).toHaveLength(1);
    await onB("mutation($m: ID!) { removeMember(memberId: $m) }", { m: user.memberId });
    const after = await viaJwt(a);
    expect(after).not.toEqual(first);
    expect(after).toEqual(await viaJwt(c));
    // A forged signature is refused, though the token it imitates is remembered.
    const [head, payload] = token.split(".");
    expect((await viaJwt(a)).status).toBe(200);
    expect((await answer(a, `${head}.${payload}.AAAA`, PROJECTS)).status).toBe(401);
  });

  it("leaves a session due for refresh to better-auth, which extends it", async () => {
    const { user, cookie } = await signedInAdmin();
    // Refreshed once older than updateAge (1 day): its expiry 7 days after its last refresh, now 2 days away.
    await db
      .knex("sessions")
      .where({ user_id: user.userId })
      .update({ expires_at: db.knex.raw("now() + interval '2 days'") });
    const res = await asSession(a, cookie, PROJECTS);
    expect(res.status).toBe(200);
    const session = await db.knex("sessions").where({ user_id: user.userId }).first();
    expect(new Date(session.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    // And remembered again: one statement.
    const again = await allStatements(() => asSession(a, cookie, PROJECTS));
    expect(again.result).toEqual(res);
    expect(again.sql.filter((t) => /\bsessions\b/.test(t))).toHaveLength(1);
  });
});

describe("headerView (how a remembered credential is read off a request's headers)", () => {
  it("answers as WHATWG Headers do: any case of the name, repeated values joined, null when absent", () => {
    const node = { "x-api-key": "k1", "set-cookie": ["a=1", "b=2"] };
    const plain = { "X-Api-Key": "k2", Authorization: "Bearer t" };
    for (const headers of [node, plain]) {
      const view = headerView(headers);
      const reference = new Headers();
      for (const [name, value] of Object.entries(headers))
        for (const v of Array.isArray(value) ? value : [value]) reference.append(name, v);
      for (const name of ["x-api-key", "X-API-KEY", "authorization", "Set-Cookie", "cookie"])
        expect(view.get(name)).toBe(reference.get(name));
    }
  });
});
