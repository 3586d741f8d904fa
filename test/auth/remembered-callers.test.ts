/**
 * Authentication and data in one round trip (issue 21; src/server/remembered-callers.ts): a key an instance resolved
 * before is remembered, and the read confirms it in its own statement. Three instances on one database: A remembers,
 * B makes the changes (as another instance of a cluster would), C runs with SKIFF_COMPILED_READS=false — it
 * remembers nothing and authenticates every request with its own statement — and is the oracle: after every kind of
 * change to a remembered caller, A's next answer (status and body) must be C's. Spec: "Deleting a key takes effect
 * at once … callers using it then receive 401".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects, type SeededUser } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";

let db: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
let c: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
let projects: string[];

beforeAll(async () => {
  db = await createTestDatabase();
  a = await startTestServer(db.url, { SKIFF_WORKER: "false" });
  b = await startTestServer(db.url, { SKIFF_WORKER: "false" });
  c = await startTestServer(db.url, { SKIFF_WORKER: "false", SKIFF_COMPILED_READS: "false" });
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

/** `query` on `server` with `apiKey` and the SQL statements `server` ran meanwhile. */
async function withStatements(server: RunningSkiff, apiKey: string, query: string) {
  const sql: string[] = [];
  const onQuery = (q: { sql: string }) => sql.push(q.sql);
  server.services.knex.on("query", onQuery);
  try {
    return { ...(await answer(server, apiKey, query)), sql };
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

describe("a remembered API key", () => {
  it("reads with one statement that looks the key up with the data", async () => {
    const admin = await rememberedAdmin();
    const res = await withStatements(a, admin.apiKey, PROJECTS);
    expect(res.status).toBe(200);
    const ids = (res.body.data as { projects: { edges: Array<{ node: { id: string } }> } }).projects.edges;
    expect(ids.map((e) => e.node.id).sort()).toEqual([...projects].sort());
    expect(res.sql).toHaveLength(1);
    expect(res.sql[0]).toMatch(/from api_keys k/);
    expect(res.sql[0]).toMatch(/from projects/);
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
      "the role lowered to member (no grants: every project)",
      (u) => onB("mutation($m: ID!) { updateMemberRole(memberId: $m, role: member) { id } }", { m: u.memberId }),
      "{ viewer { role activeOrganization { id } } projects(first: 10) { edges { node { id } } } }",
    ],
    [
      "the organization's plan without webhooks",
      () => db.knex("organizations").where({ id: org.organizationId }).update({ plan_id: "plan_free" }),
      WEBHOOKS,
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
