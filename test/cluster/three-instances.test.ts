/**
 * Three Skiff instances behave as one (issue 23): three `src/main.ts` processes on one PostgreSQL behind a small
 * round-robin HTTP proxy on loopback (below; every request goes to the next live instance on a fresh
 * connection, like a load balancer without stickiness). Through the proxy: the agent limit and the sign-in limit
 * hold in total, live events reach subscribers on every instance, and webhook deliveries arrive once each — none
 * lost, every attempt logged once — while one instance is SIGKILLed mid-run.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { createAgentTokenFor, createOrg, createUser, setPassword } from "../helpers/seed.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";

/** A round-robin HTTP proxy over `backends`; a backend refusing the connection is skipped (and counted). */
async function startProxy(backends: string[]) {
  let next = 0;
  const served = backends.map(() => 0);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const index = next++ % backends.length;
        const target = new URL(backends[index]!);
        const out = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, connection: "close" },
            agent: false,
          },
          (upstream) => {
            served[index]!++;
            res.writeHead(upstream.statusCode ?? 502, upstream.headers);
            upstream.pipe(res);
          },
        );
        out.on("error", () => {
          if (tries + 1 < backends.length && !res.headersSent) attempt(tries + 1);
          else if (!res.headersSent) res.writeHead(502).end("no live backend");
          else res.destroy();
        });
        out.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ORIGIN = "http://skiff.test";
const AGENT_LIMIT = 30;
let db: TestDatabase;
let receiver: HttpsReceiver;
let proxy: Awaited<ReturnType<typeof startProxy>>;
const instances: Array<{ process: SkiffProcess; url: string }> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  const started = await Promise.all(
    [0, 1, 2].map(async () => {
      const process = spawnSkiff({
        DATABASE_URL: db.url,
        NODE_ENV: "production",
        SKIFF_BASE_URL: ORIGIN,
        SKIFF_BOOTSTRAP: "false",
        SKIFF_HEALTH_INTERVAL: "0",
        SKIFF_AGENT_RATE_LIMIT: String(AGENT_LIMIT),
        SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
        SKIFF_DEFAULT_REGISTRY_URL: "docker.io",
        SKIFF_IMPORT_WAIT_MS: "0",
        SKIFF_GATEWAY_URL: "https://gateway.skiff.test",
        NODE_EXTRA_CA_CERTS: inject("testTls").caFile,
        SKIFF_DB_POOL_MAX: "5",
        SKIFF_AUTH_POOL_MAX: "3",
        SKIFF_WORKER_CONCURRENCY: "2",
      });
      const listening = await process.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 90_000);
      return { process, url: String(listening.msg).replace("Server listening at ", "") };
    }),
  );
  instances.push(...started);
  proxy = await startProxy(instances.map((i) => i.url));
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  for (const { process } of instances) {
    if (process.child.exitCode === null && process.child.signalCode === null) {
      process.child.kill("SIGTERM");
      await process.exited;
    }
  }
  await receiver?.close();
  await db?.drop();
});

/** JSON request through the proxy with an API key. */
async function api(apiKey: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${proxy.url}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> | null };
}

describe("three instances behind a round-robin proxy", () => {
  it("share the agent limit: SKIFF_AGENT_RATE_LIMIT in total, not per instance", async () => {
    const org = await createOrg(db.knex);
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    const before = [...proxy.served];
    const statuses: number[] = [];
    for (let i = 0; i < AGENT_LIMIT + 9; i += 3) {
      const batch = await Promise.all(
        [0, 1, 2].map(() =>
          fetch(`${proxy.url}/api/agent/projects`, { headers: { authorization: `Bearer ${token}` } }).then(
            (r) => r.status,
          ),
        ),
      );
      statuses.push(...batch);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(AGENT_LIMIT);
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
    // Every instance answered its share.
    for (const [i, n] of proxy.served.entries()) expect(n - before[i]!).toBe((AGENT_LIMIT + 9) / 3);
  });

  it("share the sign-in limit: 3 attempts per 10 s in total", async () => {
    const user = await createUser(db.knex);
    await setPassword(db.knex, user.userId, TEST_PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${proxy.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ email: user.email, password: `wrong-${i}-password` }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
  });

  it("deliver siteImportUpdated to subscribers on every instance", async () => {
    const org = await createOrg(db.knex);
    const viewer = await api(org.owner.apiKey, "POST", "/graphql", {
      query: "{ viewer { activeOrganization { id } } }",
    });
    const organizationId = viewer.body?.data.viewer.activeOrganization.id as string;
    const seen = instances.map(() => new Set<string>());
    const clients = instances.map(({ url }) =>
      createClient({
        url: `${url.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
      }),
    );
    const subscribed = clients.map(
      (client, i) =>
        new Promise<() => void>((resolve) => {
          const dispose = client.subscribe(
            { query: "subscription { siteImportUpdated { importId status } }" },
            {
              next: (m) => {
                const update = (m.data as any)?.siteImportUpdated;
                if (update) seen[i]!.add(update.importId);
              },
              error: () => {},
              complete: () => {},
            },
          );
          client.on("connected", () => setTimeout(() => resolve(dispose), 300));
        }),
    );
    const disposers = await Promise.all(subscribed);
    try {
      const started = await api(org.owner.apiKey, "POST", "/api/site-import", {
        organizationId,
        name: "cluster-import",
        source: { type: "docker", dockerImage: "nginx:1.27" },
        port: 80,
      });
      expect([200, 201, 202]).toContain(started.status);
      const importId = started.body?.importId as string;
      expect(importId).toBeTruthy();
      const by = Date.now() + 20_000;
      while (seen.some((s) => !s.has(importId)) && Date.now() < by) await new Promise((r) => setTimeout(r, 100));
      expect(seen.map((s) => s.has(importId))).toEqual([true, true, true]);
    } finally {
      for (const dispose of disposers) dispose();
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it("deliver every webhook once (none lost, every attempt logged once) while an instance is SIGKILLed", async () => {
    const org = await createOrg(db.knex);
    const { rows } = await db.knex.raw("select database_id from organizations where id = ?", [org.organizationId]);
    const databaseId = rows[0].database_id as number;
    const hook = await api(org.owner.apiKey, "POST", `/api/v1/orgs/${databaseId}/webhooks`, {
      url: `${receiver.url}/hook`,
      events: ["course_completed"],
    });
    expect(hook.status).toBe(201);
    const webhookId = hook.body?.webhook_uuid as string;
    const accepted = new Set<string>();
    const send = async (n: number) => {
      const res = await api(org.owner.apiKey, "POST", `/api/v1/orgs/${databaseId}/events`, {
        event: "course_completed",
        data: {
          user: { user_uuid: `u${n}`, email: `u${n}@skiff.test`, username: `u${n}` },
          course: { course_uuid: `c${n}`, name: "Cluster" },
        },
      });
      expect(res.status).toBe(202);
      for (const d of res.body?.deliveries as Array<{ delivery_id: string }>) accepted.add(d.delivery_id);
    };
    const total = 60;
    for (let n = 0; n < total; n++) {
      if (n === 20) {
        // Mid-run: the third instance dies without a word; the proxy skips it from now on.
        instances[2]!.process.child.kill("SIGKILL");
        await instances[2]!.process.exited;
      }
      await send(n);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(accepted.size).toBe(total);
    const seenIds = () => new Set(receiver.requests.map((r) => String(r.headers["x-webhook-delivery"])));
    // Jobs the dead instance had locked come back with the survivors' liveness sweep (every 30 s).
    const by = Date.now() + 60_000;
    while ([...accepted].some((id) => !seenIds().has(id)) && Date.now() < by) {
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 1500));
    const perDelivery = new Map<string, number>();
    for (const r of receiver.requests) {
      const id = String(r.headers["x-webhook-delivery"]);
      perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    }
    const lost = [...accepted].filter((id) => !perDelivery.has(id));
    expect(lost).toEqual([]);
    const { rows: logged } = await db.knex.raw(
      "select delivery_id, count(*)::int as n, count(distinct attempt)::int as distinct_attempts " +
        "from webhook_delivery_attempts where endpoint_id = ? group by delivery_id",
      [webhookId],
    );
    const log = new Map(logged.map((r: any) => [r.delivery_id as string, r]));
    const doubled = [...perDelivery].filter(([id, n]) => {
      const row = log.get(id) as { n: number; distinct_attempts: number } | undefined;
      return !row || row.n !== n || row.distinct_attempts !== row.n;
    });
    expect(doubled).toEqual([]);
    // The receiver answered 200 every time: one attempt each.
    expect([...perDelivery.values()].every((n) => n === 1)).toBe(true);
  }, 120_000);
});
