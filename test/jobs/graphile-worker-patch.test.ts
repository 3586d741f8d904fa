/**
 * The graphile-worker patch (patches/graphile-worker+0.18.0.patch, ported from 0.17.3), tested
 * upstream-style: graphile-worker's own `run()` on a real PostgreSQL behind a real TCP proxy (closed = the outage), no
 * Skiff code involved. Both tests fail on the unpatched 0.18.0 (`npx patch-package --reverse`).
 * - Batched completion retries with backoff: a job ending while the database is away is recorded once it is back,
 *   by the same pool (upstream 0.17.3 and 0.18.0 give up at the first failed query and shut the pool down).
 * - After a recovered failure the batcher applies backpressure again and still releases on shutdown (upstream
 *   kept the resolved backpressure, so `pending` lost its balance and `stop()` could wait forever).
 * - A released local queue whose jobs cannot be returned (database away) settles without rejecting, and nothing is
 *   left as an unhandled rejection (upstream threw, which could end the process).
 */
import { type Runner, run } from "graphile-worker";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";

let db: TestDatabase;
let proxy: TcpProxy;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
const pools: pg.Pool[] = [];
/** What graphile-worker logged at level error since the last test. */
const errors: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  if (proxy && !proxy.listening) await proxy.open();
  await proxy?.close();
  await Promise.all(pools.splice(0).map((p) => p.end().catch(() => {})));
  errors.splice(0);
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await db?.drop();
});

/** graphile-worker's runner on the proxied database: `sleepy` waits `ms` from its payload. */
async function start(options: { localQueue?: number; concurrency?: number } = {}) {
  proxy = tcpProxy(db.url);
  await proxy.open();
  const pgPool = new pg.Pool({ connectionString: proxy.url(db.url), max: 5 });
  pgPool.on("error", () => {});
  pgPool.on("connect", (client) => client.on("error", () => {}));
  pools.push(pgPool);
  const ran: number[] = [];
  const runner: Runner = await run({
    pgPool,
    concurrency: options.concurrency ?? 1,
    pollInterval: 200,
    noHandleSignals: true,
    logger: new (await import("graphile-worker")).Logger(() => (level, message) => {
      if (level === "error") errors.push(message);
    }),
    taskList: {
      sleepy: async (payload) => {
        const { n, ms } = payload as { n: number; ms: number };
        ran.push(n);
        await new Promise((r) => setTimeout(r, ms));
      },
    },
    preset: {
      worker: {
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
        gracefulShutdownAbortTimeout: 500,
        ...(options.localQueue ? { localQueue: { size: options.localQueue } } : {}),
      },
    },
  });
  let exited = false;
  runner.promise.then(
    () => (exited = true),
    () => (exited = true),
  );
  return { runner, ran, exited: () => exited };
}

async function jobsLeft(): Promise<Array<{ locked: boolean; attempts: number }>> {
  const { rows } = await db.knex.raw(
    "select locked_at is not null as locked, attempts from graphile_worker.jobs where task_identifier = 'sleepy'",
  );
  return rows;
}

async function until(probe: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("graphile-worker, patched", () => {
  it("records a job's completion after an outage instead of shutting the pool down", async () => {
    const { runner, ran, exited } = await start();
    await runner.addJob("sleepy", { n: 1, ms: 800 });
    await until(() => ran.length === 1, 5000);
    await proxy.close();
    // The job ends 800 ms in, with the database away; its completion is retried.
    await new Promise((r) => setTimeout(r, 2500));
    expect(exited()).toBe(false);
    await proxy.open();
    await until(async () => (await jobsLeft()).length === 0, 30_000);
    expect(ran).toEqual([1]);
    expect(exited()).toBe(false);
    // A second outage after the recovery: backpressure applies again, and the batcher still releases on stop().
    await runner.addJob("sleepy", { n: 2, ms: 300 });
    await until(() => ran.length === 2, 5000);
    await proxy.close();
    await new Promise((r) => setTimeout(r, 1000));
    await proxy.open();
    await until(async () => (await jobsLeft()).length === 0, 30_000);
    const stopped = Date.now();
    await runner.stop();
    expect(Date.now() - stopped).toBeLessThan(3000);
    expect(unhandled).toEqual([]);
  }, 60_000);

  it("returns the jobs a local queue holds when the runner stops, unlocked for the next runner", async () => {
    await db.knex.raw(
      "select graphile_worker.add_job('sleepy', json_build_object('n', n, 'ms', 600)) from generate_series(1, 4) n",
    );
    const { runner, ran } = await start({ localQueue: 5, concurrency: 1 });
    await until(() => ran.length === 1, 5000);
    await until(async () => (await jobsLeft()).filter((j) => j.locked).length === 4, 5000);
    // The three waiting in the local queue go back to the database queue, unlocked, and the shutdown logs no error
    // (upstream refused to start their return: "Cannot background something when the queue is already released").
    await runner.stop();
    expect(ran).toEqual([1]);
    expect(await jobsLeft()).toEqual([
      { locked: false, attempts: 0 },
      { locked: false, attempts: 0 },
      { locked: false, attempts: 0 },
    ]);
    expect(unhandled).toEqual([]);
    expect(errors).toEqual([]);
    await db.knex.raw("delete from graphile_worker._private_jobs");
  }, 60_000);

  it("releases a local queue whose jobs cannot be returned without rejecting or leaving an unhandled rejection", async () => {
    // All four queued before the runner starts, so that its first fetch takes them together: added one by one, a
    // fetch between two additions left the rest unlocked until the running job ended (a flake under load).
    await db.knex.raw(
      "select graphile_worker.add_job('sleepy', json_build_object('n', n, 'ms', 1500)) from generate_series(1, 4) n",
    );
    const { runner, ran } = await start({ localQueue: 5, concurrency: 1 });
    // One job runs; the others wait in the local queue, locked by the pool.
    await until(() => ran.length === 1, 5000);
    await until(async () => (await jobsLeft()).filter((j) => j.locked).length === 4, 5000);
    await proxy.close();
    const stopped = Date.now();
    const stopping = runner.stop().then(
      () => "resolved",
      () => "rejected (handled)",
    );
    // The local queue gives up returning its jobs while the database is away; the running job's completion waits
    // for it and is recorded once it is back, then stop() settles.
    await new Promise((r) => setTimeout(r, 3000));
    await proxy.open();
    const outcome = await stopping;
    console.info(`stop() with the database away for 3 s: ${outcome} after ${Date.now() - stopped} ms`);
    await new Promise((r) => setTimeout(r, 500));
    expect(unhandled).toEqual([]);
    expect(ran).toEqual([1]);
    // The waiting jobs stay in the queue (locked by the gone pool: Skiff's liveness sweep returns them); none lost.
    expect((await jobsLeft()).length).toBe(3);
  }, 60_000);
});
