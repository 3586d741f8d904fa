/**
 * During a database outage (a real TCP proxy in front of PostgreSQL, closed and reopened)
 * GraphQL and REST answer 503 with Retry-After instead of 500, /readyz is 503, /healthz stays 200, and the
 * server recovers once the database is back. A session cookie or a user JWT this instance has not verified yet meets
 * the outage too (503), not a refusal (401): better-auth hides its database errors, so Skiff asks the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";
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

  it("answers a session cookie and a user JWT first seen during the outage 503, not 401, and 200 once it ends", async () => {
    const cookie = await sessionFor(db.knex, skiff.url, org.owner);
    const issued = await fetch(`${skiff.url}/api/auth/token`, { headers: { cookie } });
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    const [head, payload] = token.split(".");
    const ask = (headers: Record<string, string>) =>
      fetch(`${skiff.url}/graphql`, { ...QUERY, headers: { "content-type": "application/json", ...headers } });
    // Neither credential has been used on /graphql yet: this instance remembers neither.
    await proxy.close();
    for (const headers of [{ cookie }, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
      const res = await ask(headers);
      expect(res.status, JSON.stringify(headers)).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe(
        "SERVICE_UNAVAILABLE",
      );
    }
    await proxy.open();
    let recovered = 0;
    for (let i = 0; i < 50 && recovered !== 200; i++) {
      recovered = (await ask({ authorization: `Bearer ${token}` })).status;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(recovered).toBe(200);
    expect((await ask({ cookie })).status).toBe(200);
    // With the database up, a forged signature is still a refusal.
    expect((await ask({ authorization: `Bearer ${head}.${payload}.AAAA` })).status).toBe(401);
  });
});
