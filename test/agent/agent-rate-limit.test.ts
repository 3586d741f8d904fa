/**
 * The agent rate limit (spec: Limits): 120 requests per minute per token, shared by every client using the
 * token and by every server instance on the database; over the limit the answer is 401 without Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { type AgentErrorBody, type AgentResponse, agentGet } from "./agent-client.ts";

let db: TestDatabase;
let first: RunningSkiff;
let second: RunningSkiff;
beforeAll(async () => {
  db = await createTestDatabase();
  [first, second] = await Promise.all([startTestServer(db.url), startTestServer(db.url)]);
});
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await db?.drop();
});

/** Sends `n` requests with `token`, alternating between both instances and both headers, 10 at a time. */
async function burst(token: string, n: number): Promise<AgentResponse<AgentErrorBody | unknown[]>[]> {
  const out: AgentResponse<AgentErrorBody | unknown[]>[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = Array.from({ length: Math.min(10, n - i) }, (_, j) => {
      const k = i + j;
      return agentGet<AgentErrorBody | unknown[]>(
        (k % 2 ? second : first).url,
        "/api/agent/projects",
        token,
        k % 3 ? "x-api-key" : "bearer",
      );
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

describe("agent rate limit", () => {
  it("lets exactly 120 of 130 requests in a minute through, across two server instances", async () => {
    const org = await createOrg(db.knex);
    await createProjects(db.knex, org.organizationId, 2);
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    const started = Date.now();
    const responses = await burst(token, 130);
    expect(Date.now() - started).toBeLessThan(60_000);

    expect(responses.filter((r) => r.status === 200)).toHaveLength(120);
    const limited = responses.filter((r) => r.status !== 200);
    expect(limited).toHaveLength(10);
    for (const res of limited) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: expect.stringContaining("Rate limit"), code: "UNAUTHORIZED" });
      expect(res.headers.get("retry-after")).toBeNull();
    }
    // Both instances answered successes and refusals from the one shared counter.
    const byInstance = (i: number) => responses.filter((_, k) => k % 2 === i).map((r) => r.status);
    expect(byInstance(0)).toContain(200);
    expect(byInstance(1)).toContain(200);
  });

  it("counts per token: another token of the organization is unaffected", async () => {
    const org = await createOrg(db.knex);
    const admin = await addMember(db.knex, org.organizationId, "admin");
    const busy = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    const idle = await createAgentTokenFor(db.knex, org.organizationId, admin);
    const responses = await burst(busy, 121);
    expect(responses.at(-1)?.status).toBe(401);
    expect((await agentGet(first.url, "/api/agent/projects", idle)).status).toBe(200);
    expect((await agentGet(second.url, "/api/agent/projects", busy)).status).toBe(401);
  });

  it("lets the token through again once its window has passed", async () => {
    const org = await createOrg(db.knex);
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    await burst(token, 121);
    expect((await agentGet(first.url, "/api/agent/projects", token)).status).toBe(401);
    // End the window now instead of waiting a minute.
    const { id } = await db.knex("agent_tokens").where({ organization_id: org.organizationId }).first("id");
    await db
      .knex("agent_rate_limits")
      .where({ key: `agent:${id}` })
      .update({ expire: Date.now() - 1 });
    expect((await agentGet(second.url, "/api/agent/projects", token)).status).toBe(200);
  });

  it("starts a new window on the database's clock, also for a token both instances remember", async () => {
    const org = await createOrg(db.knex);
    await createProjects(db.knex, org.organizationId, 2);
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    // Both instances resolve the token (first ten), then compile its read and keep the statement (next ten:
    // src/reads/planner.ts), which the later requests reuse.
    expect((await burst(token, 20)).every((r) => r.status === 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { id } = await db.knex("agent_tokens").where({ organization_id: org.organizationId }).first("id");
    // The window ends now, with 20 calls counted: the next window starts from zero, not from 20.
    await db
      .knex("agent_rate_limits")
      .where({ key: `agent:${id}` })
      .update({ expire: Date.now() - 1 });
    const responses = await burst(token, 130);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(120);
    expect(responses.slice(120).map((r) => r.status)).toEqual(Array(10).fill(401));
    const row = await db
      .knex("agent_rate_limits")
      .where({ key: `agent:${id}` })
      .first("expire");
    // The window the burst opened: a minute from the database's clock (this machine's, within a few seconds).
    expect(Math.abs(Number(row.expire) - (Date.now() + 60_000))).toBeLessThan(10_000);
  });

  it("does not count requests of unknown tokens or the OpenAPI document", async () => {
    const before = await db.knex("agent_rate_limits").count<{ count: number }[]>("* as count");
    await agentGet(first.url, "/api/agent/projects", "skiff_agt_unknown");
    await fetch(`${first.url}/api/agent/openapi.json`);
    const after = await db.knex("agent_rate_limits").count<{ count: number }[]>("* as count");
    expect(after[0]!.count).toBe(before[0]!.count);
  });
});
