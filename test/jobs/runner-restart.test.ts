/**
 * The job runner survives a database outage. graphile-worker (patched, patches/graphile-worker+*.patch)
 * retries recording a job's end with backoff instead of giving up at the first failed query, so its pool rides out
 * an outage and records the end once the database is back. A pool that still exits on its own (anything
 * graphile-worker deems fatal; here: ended by the test) is restarted once the database answers, after its locks are
 * freed, with /readyz at 503 meanwhile; and stop() keeps its timeout when told to during an outage.
 * Real PostgreSQL behind a real TCP proxy (closed = the outage); the server runs in the test process.
 */
import type { WorkerPool } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";
import { type JobServer, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
let proxy: TcpProxy;
let s: JobServer;
/**
 * The worker pool of the server's last started job (the test ends it to stand for a fatal error), told by the
 * runner's public `job:start` event (graphile-worker 0.18 exports no list of pools).
 */
let lastPool: WorkerPool | undefined;
const pool = () => lastPool;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = tcpProxy(db.url);
  await proxy.open();
  s = await startJobServer(proxy.url(db.url), "phoenix", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "1500" });
  s.skiff.runner!.events.on("job:start", ({ worker }) => {
    lastPool = worker.workerPool;
  });
});
afterAll(async () => {
  if (!proxy?.listening) await proxy?.open();
  await s?.skiff.stop();
  await proxy?.close();
  await db?.drop();
});

const logged = (pattern: RegExp) => s.logs.some((l) => pattern.test(String(l.msg)));
const readyz = async () => (await fetch(`${s.skiff.url}/readyz`)).status;
const runsOf = (job: string, key: string) => runs.filter((r) => r.job === job && r.key === key);

describe("job runner supervision", () => {
  it("keeps its worker pool through an outage and records a job's end once the database is back", async () => {
    await s.skiff.services.jobs.enqueue(db.knex, "test.record", { key: "through", sleepMs: 1500 });
    await until(() => runsOf("test.record", "through").length === 1);
    await proxy.close();
    // The job ends during the outage; recording that fails, and is retried.
    await until(() => runsOf("test.record", "through")[0]!.finishedAt !== undefined, 10_000);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await readyz()).toBe(503);
    expect(logged(/worker pool exited/)).toBe(false);
    expect(s.skiff.runner!.running).toBe(true);
    await proxy.open();
    const back = Date.now();
    await until(
      async () => (await db.knex.raw("select count(*)::int as n from graphile_worker.jobs")).rows[0].n === 0,
      40_000,
    );
    console.info(`the job's end was recorded ${Date.now() - back} ms after the database came back`);
    // It ran once: its end was recorded, not run again.
    expect(runsOf("test.record", "through")).toHaveLength(1);
    await s.skiff.services.jobs.enqueue(db.knex, "test.record", { key: "after" });
    await until(() => runsOf("test.record", "after").length === 1, 10_000);
    await until(async () => (await readyz()) === 200, 10_000);
  }, 90_000);

  it("restarts a worker pool that exited by itself, once the database answers, and runs its jobs again", async () => {
    await s.skiff.services.jobs.enqueue(db.knex, "test.record", { key: "outage", sleepMs: 1500 });
    await until(() => runsOf("test.record", "outage").length === 1);
    // Ended while the database answers (a pool ending during an outage first waits to record its jobs' ends), which
    // then goes away before the restart (1 s later).
    Promise.resolve(pool()!.forcefulShutdown("ended by the test")).catch(() => {});
    await until(() => logged(/worker pool exited/), 20_000);
    await proxy.close();
    expect(await readyz()).toBe(503);
    // Restarting while the database is still away fails, and is tried again later.
    await until(() => logged(/restart failed; retrying/), 20_000);
    expect(s.skiff.runner!.running).toBe(false);

    await proxy.open();
    const back = Date.now();
    await s.skiff.services.jobs.enqueue(db.knex, "test.record", { key: "after-outage" });
    await until(() => runsOf("test.record", "after-outage").length === 1, 30_000);
    const ranAfterMs = Date.now() - back;
    console.info(`a job enqueued after the outage ran ${ranAfterMs} ms after the database came back`);
    expect(runsOf("test.record", "after-outage")[0]!.instance).toBe("phoenix");
    expect(s.skiff.runner!.running).toBe(true);
    expect(await readyz()).toBe(200);

    // The job the ended pool was running is run again.
    await until(() => runsOf("test.record", "outage").length === 2, 30_000);
    const metrics = await (await fetch(`${s.skiff.url}/metrics`)).text();
    expect(metrics).toMatch(/^skiff_job_runner_restarts_total [1-9]/m);
    expect(metrics).toMatch(/^skiff_job_runners_down 0$/m);
  }, 120_000);

  it("stops within its shutdown timeout while the database is away and the pool waits to restart", async () => {
    await s.skiff.services.jobs.enqueue(db.knex, "test.slow-waits", { key: "second", sleepMs: 800 });
    await until(() => runsOf("test.slow-waits", "second").length === 1);
    const exits = s.logs.filter((l) => /exited unexpectedly/.test(String(l.msg))).length;
    Promise.resolve(pool()!.forcefulShutdown("ended by the test")).catch(() => {});
    await until(() => s.logs.filter((l) => /exited unexpectedly/.test(String(l.msg))).length > exits, 20_000);
    await proxy.close();
    expect(s.skiff.runner!.running).toBe(false);
    const t0 = Date.now();
    await s.skiff.runner!.stop();
    const stopMs = Date.now() - t0;
    console.info(`runner stop() during an outage took ${stopMs} ms`);
    expect(stopMs).toBeLessThan(1500 + 1000);
  }, 60_000);
});
