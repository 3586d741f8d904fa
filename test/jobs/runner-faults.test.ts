/**
 * The job runner after losing its connections: its LISTEN connection terminated right after a database outage, and
 * a worker pool restarted while the database goes away again before its first fetch (a PostgreSQL restarting in a
 * crash loop). Jobs must still be fetched (by polling while LISTEN is down) and the LISTEN connection must come back
 * within seconds. Real PostgreSQL behind a real TCP proxy (closed = the outage); the server runs in the test process.
 */
import type { WorkerPool } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";
import { type JobServer, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
let proxy: TcpProxy;
let s: JobServer;
/** The worker pool of the server's last started job (told by the runner's `job:start` event). */
let lastPool: WorkerPool | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  proxy = tcpProxy(db.url);
  await proxy.open();
  s = await startJobServer(proxy.url(db.url), "listener", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "1500" });
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The runner's LISTEN backends (graphile-worker's `jobs:insert`), as PostgreSQL sees them. */
const listenerPids = async (): Promise<number[]> =>
  (await db.knex.raw(`select pid from pg_stat_activity where query ilike 'listen "jobs:insert"%'`)).rows.map(
    (r: { pid: number }) => r.pid,
  );
const runnerListeners = async () => (await listenerPids()).length;
/** Enqueues `test.record` under `key` and resolves with the ms until it started. */
async function runTime(key: string, timeoutMs: number): Promise<number> {
  const at = Date.now();
  await s.skiff.services.jobs.enqueue(db.knex, "test.record", { key });
  await until(() => runs.some((r) => r.job === "test.record" && r.key === key), timeoutMs);
  return runs.find((r) => r.key === key)!.startedAt - at;
}

describe("job runner after losing its connections", () => {
  it("runs a new job promptly and gets its LISTEN connection back when LISTEN backends are terminated after an outage", async () => {
    // Promptly means through LISTEN, not the 2 s poll: the runner's LISTEN connection is up before the first probe.
    await until(async () => (await runnerListeners()) > 0, 10_000);
    expect(await runTime("before", 10_000)).toBeLessThan(2000);
    // A 20 s outage: the LISTEN connection's reconnection backs off meanwhile (upstream: up to a minute apart).
    await proxy.close();
    await sleep(20_000);
    await proxy.open();
    const back = Date.now();
    await until(async () => (await runnerListeners()) > 0, 30_000);
    const listenBack = Date.now() - back;
    // The probe: every LISTEN backend terminated, then a new user-facing job.
    const terminated = await listenerPids();
    await db.knex.raw("select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%'");
    const ran = await runTime("after-terminate", 15_000);
    // A new LISTEN backend (not one of the terminated ones).
    await until(async () => (await listenerPids()).some((pid) => !terminated.includes(pid)), 15_000);
    const listenAgain = Date.now() - back - listenBack;
    console.info(
      `LISTEN back ${listenBack} ms after the outage; job started ${ran} ms after enqueue; LISTEN back again within ${listenAgain} ms`,
    );
    expect(listenBack).toBeLessThan(8000);
    // Polling (2 s) at worst while LISTEN reconnects.
    expect(ran).toBeLessThan(4000);
    expect(s.skiff.runner!.running).toBe(true);
  }, 120_000);

  it("resumes after a PostgreSQL restart that hit a restarted worker pool before its first fetch", async () => {
    await runTime("warm", 10_000);
    const pool = lastPool!;
    // The database goes away at the very moment the restarted pool is created, before it fetched anything.
    let outage: Promise<void> | undefined;
    s.skiff.runner!.events.once("pool:create", () => {
      outage = proxy.close();
    });
    // A pool exiting on its own (what graphile-worker does on errors it deems fatal) is restarted by the runner.
    Promise.resolve(pool.forcefulShutdown("ended by the test")).catch(() => {});
    await until(() => outage !== undefined, 30_000);
    await outage;
    await sleep(3000);
    await proxy.open();
    const ran = await runTime("after-restart", 20_000);
    console.info(`after the database came back the job started ${ran} ms after enqueue`);
    expect(ran).toBeLessThan(6000);
    await until(async () => (await runnerListeners()) > 0, 15_000);
  }, 90_000);
});
