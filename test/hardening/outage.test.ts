/**
 * During a database outage (a real TCP proxy in front of PostgreSQL, closed and reopened)
 * GraphQL and REST answer 503 with Retry-After instead of 500, /readyz is 503, /healthz stays 200, and the
 * server recovers once the database is back. A session cookie or a user JWT this instance has not verified yet meets
 * the outage too (503), not a refusal (401): better-auth hides its database errors, so Skiff asks the database.
 * Every row of the REST table that reads the database — agent, site import (documented and procedures), webhooks,
 * deploy trigger, docs theming, payment events — answers the outage 503 with Retry-After in its own error body.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { restRoutes } from "../../src/modules/index.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createAgentTokenFor, createOrg } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { postAuth, sessionFor, TEST_PASSWORD } from "../helpers/session.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
let proxy: TcpProxy;
const LICENSE_KEY = "lic_outage_test_key_0001";

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = tcpProxy(db.url);
  await proxy.open();
  // A license key this instance accepts as a docs host, so the docs sync row reaches the database.
  skiff = await startTestServer(proxy.url(db.url), { SKIFF_WORKER: "false", SKIFF_LICENSE_KEY: LICENSE_KEY });
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

  it("answers sign-in, sign-up, get-session and sign-out 503 with Retry-After; a sign-out never claims success", async () => {
    const user = await addMember(db.knex, org.organizationId, "member");
    const cookie = await sessionFor(db.knex, skiff.url, user);
    const viewer = () =>
      fetch(`${skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ query: "{ viewer { user { id } } }" }),
      });
    expect((await viewer()).status).toBe(200); // remembered by this instance
    await proxy.close();
    const answers = {
      signIn: await postAuth(skiff.url, "/sign-in/email", { email: user.email, password: TEST_PASSWORD }),
      signUp: await postAuth(skiff.url, "/sign-up/email", {
        email: `outage-${Date.now()}@example.com`,
        password: TEST_PASSWORD,
        name: "Outage",
      }),
      getSession: await fetch(`${skiff.url}/api/auth/get-session`, { headers: { cookie } }),
      signOut: await postAuth(skiff.url, "/sign-out", {}, cookie),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.status, name).toBe(503);
      expect(res.headers.get("retry-after"), name).toBe("5");
      expect(res.headers.getSetCookie(), name).toEqual([]); // the client keeps its cookie and tries again
    }
    await proxy.open();
    let signedOut = 0;
    for (let i = 0; i < 50 && signedOut !== 200; i++) {
      signedOut = (await postAuth(skiff.url, "/sign-out", {}, cookie)).status;
      if (signedOut !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(signedOut).toBe(200);
    expect((await viewer()).status).toBe(401); // the session is gone
  });

  it("answers every REST row that reads the database 503 with Retry-After, in the row family's error body", async () => {
    const agentToken = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    const agent = (path: string) =>
      fetch(`${skiff.url}${path}`, { headers: { authorization: `Bearer ${agentToken}` } });
    // Both credentials used once with the database up: this instance remembers them (compiled reads) when it goes.
    expect((await agent("/api/agent/projects")).status).toBe(200);
    expect((await call("/api/site-import")).status).toBe(200);
    /** A value for each path parameter that passes the rows' own checks (then the database is asked). */
    const params: Record<string, string> = { databaseId: "1", org_id: "1", token: "t".repeat(43) };
    /** Query strings and bodies the rows check before asking the database. */
    const inputs: Record<string, { query?: string; body?: unknown; license?: boolean }> = {
      "GET /api/agent/application": { query: "?applicationId=app_x" },
      "GET /api/agent/deployments": { query: "?applicationId=app_x" },
      "GET /api/docs/lookup": { query: "?hostname=docs.example.com" },
      "POST /api/docs/sync": {
        license: true,
        body: { registrations: [{ hostname: "docs.example.com", cloudUrl: "https://cloud.example.com" }] },
      },
      "POST /api/payment-gateway/events": { body: { merchantCode: "m_1", type: "payment.succeeded" } },
    };
    const rows = restRoutes.filter((route) => !("serve" in route));
    const families = new Set(rows.map((route) => route.path.split("/").slice(0, 3).join("/")));
    expect(families.size).toBeGreaterThanOrEqual(6);
    await proxy.close();
    const answers: Array<{ row: string; status: number; retryAfter: string | null; body: string }> = [];
    try {
      for (const route of rows) {
        const row = `${route.method} ${route.path}`;
        const input = inputs[row] ?? {};
        const path = route.path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? "x");
        const credential =
          "surface" in route && route.surface === "agent"
            ? agentToken
            : "surface" in route && route.surface === "rest"
              ? org.owner.apiKey
              : input.license
                ? LICENSE_KEY
                : undefined;
        const res = await fetch(`${skiff.url}${path}${input.query ?? ""}`, {
          method: route.method,
          headers: {
            "content-type": "application/json",
            ...(credential ? { authorization: `Bearer ${credential}` } : {}),
          },
          ...(route.method === "GET" ? {} : { body: JSON.stringify(input.body ?? {}) }),
        });
        answers.push({ row, status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() });
      }
    } finally {
      await proxy.open();
    }
    expect(answers.filter((a) => a.status !== 503 || a.retryAfter !== "5")).toEqual([]);
    for (const a of answers) expect(a.body, a.row).not.toMatch(/ECONNREFUSED|at .*\.ts|Internal server error/);
    // The agent API's documented body: `{ message, code }`.
    for (const a of answers.filter((x) => x.row.includes("/api/agent/"))) {
      expect(JSON.parse(a.body), a.row).toEqual({ message: expect.any(String), code: "SERVICE_UNAVAILABLE" });
    }
    // Every agent row that reads the database answered (the list follows the route table).
    const agentRows = rows.filter((r) => r.path.startsWith("/api/agent/")).map((r) => `${r.method} ${r.path}`);
    expect(agentRows.length).toBeGreaterThanOrEqual(3);
    expect(answers.filter((a) => a.row.includes("/api/agent/")).map((a) => a.row)).toEqual(agentRows);
    console.info(`outage: ${answers.length} REST rows answered 503 with Retry-After`);
  });

  it("closes a WebSocket whose connection_init meets the outage with 1013 (try again later), not 4500", async () => {
    await proxy.close();
    let code = 0;
    try {
      const ws = new WebSocket(`${skiff.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
      await new Promise((resolve) => ws.once("open", resolve));
      const closed = new Promise<number>((resolve) => ws.once("close", (c) => resolve(c)));
      ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${org.owner.apiKey}` } }));
      code = await closed;
    } finally {
      await proxy.open();
    }
    expect(code).toBe(1013);
  });
});
