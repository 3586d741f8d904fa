/**
 * The execution time limit: with SKIFF_EXECUTION_TIMEOUT_MS=1 an operation resolving many fields
 * (compiled into one statement or run through the resolvers) stops at the deadline and answers 400
 * EXECUTION_TIME_LIMIT (one error, no partial data), and the server keeps answering; the same query sent over
 * WebSocket gets the same single error in its result.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { wsOperation } from "../helpers/ws-operation.ts";

const t = useTestServer({ SKIFF_EXECUTION_TIMEOUT_MS: "1", SKIFF_WORKER: "false" });
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
  await createProjects(t.db.knex, org.organizationId, 100, { environments: 2, applicationsPerEnvironment: 2 });
});

describe("execution time limit", () => {
  // The first query is a compiled read (one statement, cancelled at the deadline); `organization` is not compiled,
  // so the second runs through the resolvers, which stop at the deadline themselves.
  it.each([
    [
      "a compiled read",
      "{ projects(first: 100) { edges { node { id name environments { id applications { id name } } } } } }",
    ],
    [
      "the resolvers",
      "{ projects(first: 100) { edges { node { id organization { id } environments { id applications { id name } } } } } }",
    ],
  ])("answers 400 EXECUTION_TIME_LIMIT once the deadline passes (%s)", async (_path, query) => {
    const res = await gql(t.skiff.url, query, {}, { apiKey: org.owner.apiKey });
    expect(res.status).toBe(400);
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "EXECUTION_TIME_LIMIT", limit: 1 });
    expect(res.data).toBeUndefined();
    const health = await fetch(`${t.skiff.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it("stops a query sent over WebSocket at the same deadline: one EXECUTION_TIME_LIMIT error, no data", async () => {
    const query =
      "{ projects(first: 100) { edges { node { id organization { id } environments { id applications { id name } } } } } }";
    const outcome = await wsOperation(t.skiff.url, org.owner.apiKey, query);
    expect(outcome.closeCode).toBeUndefined();
    const next = outcome.messages.find((m) => m.type === "next")?.payload as {
      data?: unknown;
      errors?: Array<{ extensions?: Record<string, unknown> }>;
    };
    expect(next.errors).toHaveLength(1);
    expect(next.errors?.[0]?.extensions).toMatchObject({ code: "EXECUTION_TIME_LIMIT", limit: 1 });
    expect(next.data).toBeUndefined();
  });
});
