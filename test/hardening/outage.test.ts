/**
 * Issue 16 item 14: during a database outage (a real TCP proxy in front of PostgreSQL, closed and reopened)
 * GraphQL and REST answer 503 with Retry-After instead of 500, /readyz is 503, /healthz stays 200, and the
 * server recovers once the database is back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
let proxy: TcpProxy;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = tcpProxy(db.url);
  await proxy.open();
  skiff = await startTestServer(proxy.url(db.url), { SKIFF_WORKER: "false" });
  org = await createOrg(db.knex);
});
afterAll(async () => {
  await skiff?.stop();
  if (proxy?.listening) await proxy.close();
  await db?.drop();
});

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${skiff.url}${path}`, {
    ...init,
    headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text() };
}

const QUERY = { method: "POST", body: JSON.stringify({ query: "{ projects(first: 5) { totalCount } }" }) };

describe("database outage", () => {
  it("answers 503 with Retry-After, keeps /readyz 503 and /healthz 200, then recovers", async () => {
    expect((await call("/graphql", QUERY)).status).toBe(200);
    await proxy.close();
    const started = performance.now();
    const graphql = await call("/graphql", QUERY);
    const rest = await call("/api/site-import");
    const figures = { graphqlMs: Math.round(performance.now() - started) };
    expect(graphql.status, graphql.text).toBe(503);
    expect(graphql.retryAfter).toBe("5");
    expect(JSON.parse(graphql.text).errors[0].extensions.code).toBe("SERVICE_UNAVAILABLE");
    expect(graphql.text).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    expect(rest.status, rest.text).toBe(503);
    expect(rest.retryAfter).toBe("5");
    expect((await call("/readyz")).status).toBe(503);
    expect((await call("/healthz")).status).toBe(200);
    await proxy.open();
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      recovered = (await call("/graphql", QUERY)).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(recovered).toBe(200);
    console.info("outage figures", figures);
  });
});
