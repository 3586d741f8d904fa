/**
 * The job runner survives a database outage: graphile-worker's pool exits when it cannot record a job's failure
 * ("Failed to fail jobs … ECONNREFUSED"); the runner restarts it once the database answers again, frees the dead
 * pool's locks, keeps /readyz at 503 meanwhile, and still stops within its timeout when told to during an outage.
 * Real PostgreSQL behind a real TCP proxy (closed = the outage); the server runs in the test process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";
import { type JobServer, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
let proxy: TcpProxy;
let s: JobServer;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = tcpProxy(db.url);
  await proxy.open();
  s = await startJobServer(proxy.url(db.url), "phoenix", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "1500" });
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
  it("restarts the worker pool after it died on a failure it could not record during an outage", async () => {
    // Fails after 1.5 s: by then the database is away, so neither its retry nor its failure can be recorded.
    await s.skiff.services.jobs.enqueue(db.knex, "test.slow-waits", { key: "outage", sleepMs: 1500 });
    await until(() => runsOf("test.slow-waits", "outage").length === 1);
    await proxy.close();
    await until(() => logged(/Failed to (fail|complete) jobs/), 20_000);
    await until(() => logged(/worker pool exited/), 20_000);
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

    // The dead pool's lock was freed: the interrupted job ran again (not after graphile-worker's 4 hours).
    await until(() => runsOf("test.slow-waits", "outage").length === 2, 30_000);
    const metrics = await (await fetch(`${s.skiff.url}/metrics`)).text();
    expect(metrics).toMatch(/^skiff_job_runner_restarts_total [1-9]/m);
    expect(metrics).toMatch(/^skiff_job_runners_down 0$/m);
  }, 120_000);

  it("stops within its shutdown timeout while the database is away and the pool waits to restart", async () => {
    await s.skiff.services.jobs.enqueue(db.knex, "test.slow-waits", { key: "second", sleepMs: 800 });
    await until(() => runsOf("test.slow-waits", "second").length === 1);
    const exits = s.logs.filter((l) => /exited unexpectedly/.test(String(l.msg))).length;
    await proxy.close();
    await until(() => s.logs.filter((l) => /exited unexpectedly/.test(String(l.msg))).length > exits, 20_000);
    expect(s.skiff.runner!.running).toBe(false);
    const t0 = Date.now();
    await s.skiff.runner!.stop();
    const stopMs = Date.now() - t0;
    console.info(`runner stop() during an outage took ${stopMs} ms`);
    expect(stopMs).toBeLessThan(1500 + 3000);
  }, 60_000);
});
