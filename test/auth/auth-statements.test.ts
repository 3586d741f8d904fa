/**
 * Authentication with an API key costs one SQL statement, and none of its own for a compiled read
 * with a key seen before: key, creator, membership, plan features and grants in one query, the access
 * scope built from it (no membership query), and the last-used time written in the background at most once a
 * minute per key, never awaited by the request. An `/api/auth/*` request that ends sessions resolves its caller once
 * (src/server/auth-callers.ts), shared by its audit entry and the announcement of the session's end.
 */
import { describe, expect, it } from "vitest";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { postAuth, sessionFor } from "../helpers/session.ts";

// No job runner: its periodic statements would be counted with the requests'.
const t = useTestServer({ SKIFF_WORKER: "false" });

/** Runs `query` with `apiKey` and returns the SQL statements the server issued meanwhile. */
async function statementsOf(query: string, apiKey: string) {
  const sql: string[] = [];
  const onQuery = (q: { sql: string }) => sql.push(q.sql);
  t.skiff.services.knex.on("query", onQuery);
  try {
    const res = await gql(t.skiff.url, query, {}, { apiKey });
    return { res, sql };
  } finally {
    t.skiff.services.knex.off("query", onQuery);
  }
}

/** Waits until the key's `last_request` is recorded (the background write of its first use). */
async function lastUsed(apiKeyId: string): Promise<Date> {
  for (let i = 0; i < 200; i++) {
    const row = await t.db.knex("api_keys").where({ id: apiKeyId }).first("last_request");
    if (row?.lastRequest) return row.lastRequest as Date;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("last_request was never recorded");
}

describe("API key authentication", () => {
  it("costs one statement; the last-used time is written once, in the background", async () => {
    const org = await createOrg(t.db.knex);
    const first = await statementsOf("{ __typename }", org.owner.apiKey);
    expect(first.res.errors).toBeUndefined();
    const recorded = await lastUsed(org.owner.apiKeyId);

    const again = await statementsOf("{ __typename }", org.owner.apiKey);
    expect(again.res.data).toEqual({ __typename: "Query" });
    expect(again.sql).toHaveLength(1);
    expect(again.sql[0]).toMatch(/from api_keys k/);
    // Within the minute, no second write.
    const row = await t.db.knex("api_keys").where({ id: org.owner.apiKeyId }).first("last_request");
    expect((row.lastRequest as Date).getTime()).toBe(recorded.getTime());
  });

  it("loads a limited member's grants with the key: a page of projects is one statement and shows granted ones only", async () => {
    const org = await createOrg(t.db.knex);
    const [granted] = await createProjects(t.db.knex, org.organizationId, 3);
    const member = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [granted!] });
    await statementsOf("{ __typename }", member.apiKey);
    await lastUsed(member.apiKeyId);

    const page = await statementsOf("{ projects(first: 10) { edges { node { id } } } }", member.apiKey);
    expect(page.res.errors).toBeUndefined();
    const data = page.res.data as { projects: { edges: Array<{ node: { id: string } }> } };
    expect(data.projects.edges.map((e) => e.node.id)).toEqual([granted]);
    // The key was resolved by the request before: the read's own statement looks it up again with the member row
    // (its standing version stands for the grants and the plan) and reads the page (src/server/remembered-callers.ts).
    // No statement reads memberships on its own.
    expect(page.sql).toHaveLength(1);
    for (const table of [/from api_keys k/, /from members m/, /standing_version/, /from projects/])
      expect(page.sql[0]).toMatch(table);
    expect(page.sql.filter((s) => /from members/.test(s) && !/from api_keys/.test(s))).toEqual([]);
  });

  it("keeps refusing an unknown key with one statement", async () => {
    const res = await statementsOf("{ __typename }", "skiff_unknown_key_000000000000000000000000");
    expect(res.res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect(res.sql).toHaveLength(1);
  });
});

/** The statement resolving a session cookie to its caller (src/auth/credentials/session.ts). */
const SESSION_LOOKUP = /from sessions s join users u on u\.id = s\.user_id/;

describe("/api/auth/* requests that end sessions", () => {
  /** POSTs `path` with `cookie` and returns the answer and the credential lookups the server issued meanwhile. */
  async function lookupsOf(path: string, body: unknown, cookie: string) {
    const sql: string[] = [];
    const onQuery = (q: { sql: string }) => sql.push(q.sql);
    t.skiff.services.knex.on("query", onQuery);
    try {
      const res = await postAuth(t.skiff.url, path, body, cookie);
      await res.arrayBuffer();
      return { res, lookups: sql.filter((s) => SESSION_LOOKUP.test(s)).length };
    } finally {
      t.skiff.services.knex.off("query", onQuery);
    }
  }

  it.each([
    ["/sign-out", {}],
    ["/revoke-other-sessions", {}],
  ])("%s looks the session up once; its audit entry names the session's user", async (path, body) => {
    const org = await createOrg(t.db.knex);
    const cookie = await sessionFor(t.db.knex, t.skiff.url, org.owner);
    // The cookie is known to the process (remembered): its lookup is the one statement.
    expect((await gql(t.skiff.url, "{ __typename }", {}, { cookie })).errors).toBeUndefined();

    const { res, lookups } = await lookupsOf(path, body, cookie);
    expect(res.status).toBe(200);
    expect(lookups).toBe(1);
    const [entry] = await t.db.knex("audit_events").where({ requestId: res.headers.get("x-request-id")! });
    expect(entry).toMatchObject({ outcome: "ok", actorUserId: org.owner.userId });
  });
});
