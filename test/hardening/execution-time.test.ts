/**
 * Issue 16 item 1, execution time limit: with SKIFF_EXECUTION_TIMEOUT_MS=1 an operation resolving many fields
 * stops at the deadline and answers 400 EXECUTION_TIME_LIMIT (one error, no partial data), and the server keeps
 * answering.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_EXECUTION_TIMEOUT_MS: "1", SKIFF_WORKER: "false" });
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
  await createProjects(t.db.knex, org.organizationId, 100, { environments: 2, applicationsPerEnvironment: 2 });
});

describe("execution time limit", () => {
  it("answers 400 EXECUTION_TIME_LIMIT once the deadline passes", async () => {
    const res = await gql(
      t.skiff.url,
      "{ projects(first: 100) { edges { node { id name environments { id applications { id name } } } } } }",
      {},
      { apiKey: org.owner.apiKey },
    );
    expect(res.status).toBe(400);
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "EXECUTION_TIME_LIMIT", limit: 1 });
    expect(res.data).toBeUndefined();
    const health = await fetch(`${t.skiff.url}/healthz`);
    expect(health.status).toBe(200);
  });
});
