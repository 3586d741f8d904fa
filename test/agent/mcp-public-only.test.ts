/**
 * `/mcp` is not in the spec's published list: SKIFF_PUBLIC_API_ONLY=true hides it (404) unless SKIFF_MCP=true is set
 * explicitly, and SKIFF_MCP=false hides it everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createAgentTokenFor, createOrg } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** The status of an MCP `initialize` POST to a server started with `env`. */
async function initializeStatus(env: Record<string, string>, token: string): Promise<number> {
  const skiff = await startTestServer(db.url, { SKIFF_WORKER: "false", ...env });
  try {
    const res = await fetch(`${skiff.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-api-key": token,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    await res.text();
    return res.status;
  } finally {
    await skiff.stop();
  }
}

describe("/mcp and SKIFF_PUBLIC_API_ONLY", () => {
  it("is served by default, hidden in public-only mode unless SKIFF_MCP=true, and off with SKIFF_MCP=false", async () => {
    const org = await createOrg(db.knex);
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    expect(await initializeStatus({}, token)).toBe(200);
    expect(await initializeStatus({ SKIFF_PUBLIC_API_ONLY: "true" }, token)).toBe(404);
    expect(await initializeStatus({ SKIFF_PUBLIC_API_ONLY: "true", SKIFF_MCP: "true" }, token)).toBe(200);
    expect(await initializeStatus({ SKIFF_MCP: "false" }, token)).toBe(404);
  });
});
