/**
 * User-facing jobs never queue behind periodic background work: hundreds of due health probe jobs (real
 * `deployments.probe-health` jobs, each held 3–5 s by an application server that never completes the TLS handshake)
 * run one at a time in the background queue, after any ready user-facing job, so a job enqueued behind them starts
 * at once. The planner plans no probes under the `dry-run` deployer (no application runs), and one tick job per
 * interval otherwise, however many applications there are.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKGROUND_QUEUE } from "../../src/jobs/job-definition.ts";
import { planHealthProbes } from "../../src/modules/deployments/health.ts";
import type { AppServices } from "../../src/modules/services.ts";
import { addDomain, seededApplication } from "../deployments/deploy-helpers.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type JobServer, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
let s: JobServer;
let stuck: net.Server;
const held = new Set<net.Socket>();

beforeAll(async () => {
  // An application server that accepts connections and never answers (the probe times out).
  stuck = net.createServer((socket) => {
    held.add(socket);
    socket.on("close", () => held.delete(socket));
    socket.on("error", () => {});
  });
  await new Promise<void>((r) => stuck.listen(0, "127.0.0.1", () => r()));
  db = await createTestDatabase();
  s = await startJobServer(db.url, "busy", {
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    SKIFF_HEALTH_PORT: String((stuck.address() as net.AddressInfo).port),
    SKIFF_HEALTH_INTERVAL: "0",
    SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "1000",
  });
});
afterAll(async () => {
  await s?.skiff.stop();
  for (const socket of held) socket.destroy();
  await new Promise((r) => stuck?.close(r));
  await db?.drop();
});

const count = async (sql: string) => (await db.knex.raw(sql)).rows[0].n as number;

describe("background work", () => {
  it("runs a user-facing job at once while 300 due health probes are queued, probes one at a time", async () => {
    const app = await seededApplication(db.knex, { application_status: "running" });
    await addDomain(db.knex, app.organizationId, app.applicationId, "127.0.0.1");
    await s.skiff.services.jobs.enqueueMany(
      db.knex,
      "deployments.probe-health",
      Array.from({ length: 300 }, () => ({ payload: { applicationId: app.applicationId, force: true } })),
    );
    // The probes are under way (the application server holds one) before the user-facing job is queued.
    await until(() => held.size > 0, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    const at = Date.now();
    await s.skiff.services.jobs.enqueue(db.knex, "test.record", { key: "user" });
    await until(() => runs.some((r) => r.key === "user"), 20_000);
    const waited = runs.find((r) => r.key === "user")!.startedAt - at;
    const queued = await count(
      "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deployments.probe-health'",
    );
    const running = await count(
      "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deployments.probe-health' and locked_at is not null",
    );
    console.info(`the user-facing job started ${waited} ms after enqueue; probes left ${queued}, running ${running}`);
    expect(waited).toBeLessThan(2000);
    expect(queued).toBeGreaterThan(290);
    // Serial: one probe job at a time (a second may be locked in the local queue, waiting for the queue).
    expect(held.size).toBe(1);
    const queues = await db.knex.raw(
      "select distinct queue_name, priority from graphile_worker.jobs where task_identifier = 'deployments.probe-health'",
    );
    expect(queues.rows).toEqual([{ queue_name: BACKGROUND_QUEUE, priority: 100 }]);
    // The probes left are not run through (each would hold the next test 3–5 s).
    await db.knex.raw(
      "delete from graphile_worker._private_jobs where locked_at is null and task_id = (select id from graphile_worker._private_tasks where identifier = 'deployments.probe-health')",
    );
  }, 60_000);

  it("plans no probes under the dry-run deployer, and one tick job per interval otherwise", async () => {
    const services = s.skiff.services as AppServices;
    const at = (deployer: "dry-run" | "kubernetes") =>
      ({
        ...services,
        config: { ...services.config, SKIFF_DEPLOYER: deployer, SKIFF_HEALTH_INTERVAL: 20 },
      }) as AppServices;
    expect(await planHealthProbes(at("dry-run"))).toBe(0);
    const ticks =
      "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deployments.probe-health-tick'";
    expect(await count(ticks)).toBe(0);
    expect(await planHealthProbes(at("kubernetes"))).toBe(3);
    const planned = await db.knex.raw(
      "select key, queue_name, priority from graphile_worker.jobs where task_identifier = 'deployments.probe-health-tick' order by key",
    );
    expect(planned.rows).toEqual(
      [0, 1, 2].map((k) => ({ key: `health-tick:${k}`, queue_name: BACKGROUND_QUEUE, priority: 100 })),
    );
  }, 30_000);
});
