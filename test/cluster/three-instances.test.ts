/**
 * Three Skiff instances behave as one: three `src/main.ts` processes on one PostgreSQL behind a small
 * round-robin HTTP proxy on loopback (below; every request goes to the next live instance on a fresh
 * connection, like a load balancer without stickiness). Through the proxy: the agent limit and the sign-in limit
 * hold in total, live events (`siteImportUpdated`, `deploymentUpdated`) reach subscribers on every instance,
 * each cron job runs once per tick, and webhook deliveries
 * arrive once each while one instance is SIGKILLed mid-run — none lost, every attempt logged once; only what
 * the dead instance had in flight (the receiver got it, its answer never reached the sender) arrives again,
 * with the same X-Webhook-Delivery id, after the survivors' liveness sweep returns the dead runner's jobs.
 */
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { startRoundRobinProxy as startProxy } from "../helpers/round-robin-proxy.ts";
import { createAgentTokenFor, createOrg, createUser, setPassword } from "../helpers/seed.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";

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
        // graphile-worker's local queue stays on (the default): named queues are serial by their advisory lock.
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

/** Jobs put off because another run of their queue held its lock, on all instances so far (job-runner.ts). */
function busyLines(): number {
  return instances
    .flatMap(({ process }) => process.stdout().split("\n"))
    .filter((line) => line.includes("another run of its queue holds it")).length;
}

/** JSON request through the proxy with an API key. */
/** A JSON answer read loosely: tests index into it by the paths they expect. */
// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, checked by the assertions that read them
type LooseJson = Record<string, any>;

async function api(apiKey: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${proxy.url}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as LooseJson | null };
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
                const update = (m.data as { siteImportUpdated?: { importId: string } } | null)?.siteImportUpdated;
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

  /**
   * A new organization with one application, created by a site import through the proxy; resolves once the import
   * has left `pending` (its application exists).
   */
  async function importedApplication(name: string) {
    const org = await createOrg(db.knex);
    const viewer = await api(org.owner.apiKey, "POST", "/graphql", {
      query: "{ viewer { activeOrganization { id } } }",
    });
    const organizationId = viewer.body?.data.viewer.activeOrganization.id as string;
    const started = await api(org.owner.apiKey, "POST", "/api/site-import", {
      organizationId,
      name,
      source: { type: "docker", dockerImage: "nginx:1.27" },
      port: 80,
    });
    const importId = started.body?.importId as string;
    let applicationId: string | undefined;
    for (const by = Date.now() + 30_000; !applicationId && Date.now() < by; ) {
      const { rows } = await db.knex.raw(
        "select a.id from applications a join projects p on p.id = a.project_id where p.organization_id = ? " +
          "and exists (select 1 from site_imports i where i.id = ? and i.status <> 'pending')",
        [org.organizationId, importId],
      );
      applicationId = rows[0]?.id;
      if (!applicationId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(applicationId).toBeTruthy();
    return { org, applicationId: applicationId! };
  }

  it("deliver deploymentUpdated on every instance and run one application's deployments one at a time", async () => {
    const { org, applicationId } = await importedApplication("cluster-deploys");
    const seen = instances.map(() => new Set<string>());
    const clients = instances.map(({ url }) =>
      createClient({
        url: `${url.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
      }),
    );
    const disposers = await Promise.all(
      clients.map(
        (client, i) =>
          new Promise<() => void>((resolve) => {
            const dispose = client.subscribe(
              {
                query: "subscription($a: ID!) { deploymentUpdated(applicationId: $a) { deploymentId status } }",
                variables: { a: applicationId },
              },
              {
                next: (m) => {
                  const update = (m.data as { deploymentUpdated?: { deploymentId: string } } | null)?.deploymentUpdated;
                  if (update) seen[i]!.add(update.deploymentId);
                },
                error: () => {},
                complete: () => {},
              },
            );
            client.on("connected", () => setTimeout(() => resolve(dispose), 300));
          }),
      ),
    );
    try {
      // Six deployments of the one application, through the proxy: two per instance, 40 ms apart.
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await api(org.owner.apiKey, "POST", "/graphql", {
          query: "mutation($a: ID!) { deployApplication(applicationId: $a) { id } }",
          variables: { a: applicationId },
        });
        expect(res.body?.errors).toBeUndefined();
        ids.push(res.body?.data.deployApplication.id);
        await new Promise((r) => setTimeout(r, 40));
      }
      let rows: Array<{ id: string; status: string; started_at: Date | null; finished_at: Date | null }> = [];
      for (const by = Date.now() + 30_000; Date.now() < by; ) {
        ({ rows } = await db.knex.raw(
          "select id, status, started_at, finished_at from deployments where application_id = ? order by started_at",
          [applicationId!],
        ));
        if (rows.every((r) => r.status !== "queued" && r.status !== "running")) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rows.every((r) => r.status !== "queued" && r.status !== "running")).toBe(true);
      const ran = rows.filter((r) => r.started_at && r.finished_at);
      expect(ran.length).toBeGreaterThanOrEqual(2);
      // Serial: each run starts after the previous one finished, whichever instance ran it.
      for (let i = 1; i < ran.length; i++) {
        expect(ran[i]!.started_at!.getTime()).toBeGreaterThanOrEqual(ran[i - 1]!.finished_at!.getTime());
      }
      // Every subscriber, on every instance, heard of the last deployment.
      const last = ids.at(-1)!;
      for (const by = Date.now() + 10_000; seen.some((s) => !s.has(last)) && Date.now() < by; ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(seen.map((s) => s.has(last))).toEqual([true, true, true]);
    } finally {
      for (const dispose of disposers) dispose();
      await Promise.all(clients.map((c) => c.dispose()));
    }
  }, 90_000);

  // graphile-worker's local queue (on by default) can run two jobs of one named queue at once on two instances
  // (0.17.3: six deployApplication calls 40 ms apart, graphile/worker#621), so a job of a named queue runs only
  // while it holds the queue's advisory lock (src/jobs/job-queue-lock.ts).
  it("run one application's deployments one at a time across instances, the worker's local queue on", async () => {
    const { org, applicationId } = await importedApplication("cluster-serial");
    const busyBefore = busyLines();
    const ids: string[] = [];
    // 24 deployments of the one application in 8 waves of 3 concurrent calls through the proxy (one per instance).
    // The next wave is sent once this wave's surviving deployment has left `queued` (running or already ended), so
    // every wave's deployment runs (none superseded by the next wave) and is queued while the previous one may still
    // run: only the queue's rule keeps them apart.
    for (let wave = 0; wave < 8; wave++) {
      const answers = await Promise.all(
        [0, 1, 2].map(() =>
          api(org.owner.apiKey, "POST", "/graphql", {
            query: "mutation($a: ID!) { deployApplication(applicationId: $a) { id } }",
            variables: { a: applicationId },
          }),
        ),
      );
      const waveIds: string[] = [];
      for (const answer of answers) {
        expect(answer.body?.errors).toBeUndefined();
        waveIds.push(answer.body?.data.deployApplication.id);
      }
      ids.push(...waveIds);
      let left = false;
      for (const by = Date.now() + 30_000; !left && Date.now() < by; ) {
        const { rows } = await db.knex.raw(
          "select count(*)::int as n from deployments where id = any(?::text[]) and status not in ('queued', 'cancelled')",
          [waveIds],
        );
        left = rows[0].n > 0;
        if (!left) await new Promise((r) => setTimeout(r, 20));
      }
      expect(left).toBe(true);
    }
    type Row = { id: string; status: string; started_at: Date | null; finished_at: Date | null };
    let rows: Row[] = [];
    for (const by = Date.now() + 60_000; Date.now() < by; ) {
      ({ rows } = await db.knex.raw(
        "select id, status, started_at, finished_at from deployments where application_id = ? order by started_at",
        [applicationId!],
      ));
      if (rows.every((r) => r.status !== "queued" && r.status !== "running")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The import's own deployment and the 24.
    expect(rows.filter((r) => ids.includes(r.id))).toHaveLength(24);
    expect(rows.every((r) => r.status !== "queued" && r.status !== "running")).toBe(true);
    const ran = rows.filter((r) => r.started_at && r.finished_at);
    // Each wave runs once or twice: its calls supersede one another while queued, but when the previous wave's run
    // has already ended, the wave's first deployment may start before the two others are queued (a running one is
    // not superseded), and the last of them runs after it. The others of the wave end superseded, never run.
    const ranIds = new Set(ran.map((r) => r.id));
    for (let wave = 0; wave < 8; wave++) {
      const runs = ids.slice(wave * 3, wave * 3 + 3).filter((id) => ranIds.has(id)).length;
      expect(runs, `wave ${wave + 1}`).toBeGreaterThanOrEqual(1);
      expect(runs, `wave ${wave + 1}`).toBeLessThanOrEqual(2);
    }
    // No two runs overlap: each starts after the previous one finished, whichever instance ran it; the deployment
    // log says the same (its first and last lines lie inside the run).
    for (let i = 1; i < ran.length; i++) {
      expect(ran[i]!.started_at!.getTime()).toBeGreaterThanOrEqual(ran[i - 1]!.finished_at!.getTime());
    }
    const { rows: spans } = await db.knex.raw(
      `select deployment_id as id, min(at) as first, max(at) as last from deployment_logs
        where deployment_id = any(?::text[]) group by deployment_id order by min(at)`,
      [ran.map((r) => r.id)],
    );
    expect(spans).toHaveLength(ran.length);
    for (let i = 1; i < spans.length; i++) {
      expect(new Date(spans[i].first).getTime()).toBeGreaterThanOrEqual(new Date(spans[i - 1].last).getTime());
    }
    console.info(
      `${ids.length} deployments queued, ${ran.length} ran one at a time (with the import's; the rest superseded); ` +
        `${busyLines() - busyBefore} runs put off by the queue lock`,
    );
  }, 120_000);

  it("run each cron job once per tick across the instances", async () => {
    const CRON_TASKS = ["imports.expire-interrupted", "deployments.plan-health-probes"];
    /** Runs of `task` so far, summed over the three instances' /metrics. */
    const runs = async (task: string) => {
      let sum = 0;
      for (const { url } of instances) {
        const text = await (await fetch(`${url}/metrics`)).text();
        const line = text
          .split("\n")
          .find((l) => l.startsWith(`skiff_job_duration_seconds_count{`) && l.includes(`task="${task}"`));
        sum += line ? Number(line.split(" ").at(-1)) : 0;
      }
      return sum;
    };
    // Start away from a minute boundary, then wait past the next one (graphile-worker queues cron jobs at :00; the
    // serial background queue may run the previous tick's job some seconds late, so not before :20).
    while (new Date().getSeconds() > 45 || new Date().getSeconds() < 20) await new Promise((r) => setTimeout(r, 500));
    const before = await Promise.all(CRON_TASKS.map(runs));
    const tick = Math.ceil(Date.now() / 60_000) * 60_000;
    await new Promise((r) => setTimeout(r, tick - Date.now() + 12_000));
    const after = await Promise.all(CRON_TASKS.map(runs));
    expect(after.map((n, i) => n - before[i]!)).toEqual(CRON_TASKS.map(() => 1));
  }, 120_000);

  it("deliver every webhook while an instance is SIGKILLed: none lost, each attempt logged once, only in-flight ones repeated", async () => {
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
    /** Deliveries the receiver had seen (or was answering) when the instance died. */
    const inFlightAtKill = new Set<string>();
    const send = async (n: number) => {
      const res = await api(org.owner.apiKey, "POST", `/api/v1/orgs/${databaseId}/events`, {
        event: "course_completed",
        data: {
          user: { user_uuid: `u${n}`, email: `u${n}@skiff.test`, username: `u${n}` },
          course: { course_uuid: `c${n}`, name: "Cluster" },
        },
      });
      expect(res.status).toBe(202);
      for (const d of (res.body?.deliveries ?? []) as Array<{ delivery_id: string }>) accepted.add(d.delivery_id);
    };
    // Slow answers keep deliveries in flight on every instance, the one about to die included.
    receiver.respond({ delayMs: 200 });
    const total = 60;
    for (let n = 0; n < total; n++) {
      if (n === 20) {
        // Mid-run: the third instance dies without a word; the proxy skips it from now on.
        instances[2]!.process.child.kill("SIGKILL");
        await instances[2]!.process.exited;
        for (const r of receiver.requests) inFlightAtKill.add(String(r.headers["x-webhook-delivery"]));
      }
      await send(n);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(accepted.size).toBe(total);
    // Jobs the dead instance had locked come back with the survivors' liveness sweep (every 30 s).
    const pendingLeft = async () =>
      (
        await db.knex.raw(
          "select count(*)::int as n from webhook_deliveries where endpoint_id = ? and status <> 'delivered'",
          [webhookId],
        )
      ).rows[0].n as number;
    for (const by = Date.now() + 75_000; (await pendingLeft()) > 0 && Date.now() < by; ) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await pendingLeft()).toBe(0);
    const perDelivery = new Map<string, number>();
    for (const r of receiver.requests) {
      const id = String(r.headers["x-webhook-delivery"]);
      perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    }
    const lost = [...accepted].filter((id) => !perDelivery.has(id));
    expect(lost).toEqual([]);
    const { rows: logged } = await db.knex.raw(
      "select delivery_id, count(*)::int as n, count(distinct attempt)::int as distinct_attempts, " +
        "count(*) filter (where success)::int as successes " +
        "from webhook_delivery_attempts where endpoint_id = ? group by delivery_id",
      [webhookId],
    );
    const log = new Map<string, { n: number; distinct_attempts: number; successes: number }>(
      logged.map((r: { delivery_id: string; n: number; distinct_attempts: number; successes: number }) => [
        r.delivery_id,
        r,
      ]),
    );
    // Every delivery: one successful attempt logged, each attempt logged once and seen by the receiver.
    for (const id of accepted) {
      const row = log.get(id);
      expect(row, id).toMatchObject({ successes: 1 });
      expect(row!.distinct_attempts, id).toBe(row!.n);
      expect(perDelivery.get(id)!, id).toBeGreaterThanOrEqual(row!.n);
    }
    // Received more often than logged: only what the dead instance had in flight when it died (the receiver got
    // the request, the answer never reached its sender); the receiver recognises it by its X-Webhook-Delivery.
    const repeated = [...accepted].filter((id) => perDelivery.get(id)! > log.get(id)!.n);
    for (const id of repeated) expect(inFlightAtKill.has(id), id).toBe(true);
    expect(repeated.length).toBeLessThanOrEqual(2); // SKIFF_WORKER_CONCURRENCY of the dead instance
    console.info(
      `cluster webhooks: ${accepted.size} accepted, ${accepted.size - lost.length} delivered, ` +
        `${repeated.length} received again after the SIGKILL (in flight on the dead instance)`,
    );
  }, 120_000);
});
