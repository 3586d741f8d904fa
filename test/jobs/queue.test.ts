/**
 * Background jobs across instances: enqueue inside the caller's transaction (rolled back → nothing
 * runs), two instances on one database share one queue (each job runs once), an API-only instance
 * (SKIFF_WORKER=false) enqueues for the others, `runAt` is honoured within 250 ms, a new job is started by
 * graphile-worker's LISTEN wake-up (not its polling), and the retry policies: invalid payload and `none` fail for
 * good at once, `waits` retries at exactly the configured waits.
 */
import { execFile } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { promisify } from "node:util";
import pino from "pino";
import client from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobPayloadError } from "../../src/jobs/job-queue.ts";
import { startJobRunner } from "../../src/jobs/job-runner.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { type JobServer, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
let a: JobServer;
let b: JobServer;
let api: JobServer;

beforeAll(async () => {
  db = await createTestDatabase();
  [a, b, api] = await Promise.all([
    startJobServer(db.url, "a"),
    startJobServer(db.url, "b"),
    startJobServer(db.url, "api", { SKIFF_WORKER: "false" }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.skiff.stop(), b?.skiff.stop(), api?.skiff.stop()]);
  await db?.drop();
});

/**
 * Watches this process's event loop from now on. The runners and the handler that records each start run in this
 * process, so a pause of its loop (a full garbage collection in a worker that has run many test files, a starved
 * CPU) delays a wake-up timer and its record alike: not the scheduler's lateness. Time bounds allow the longest
 * pause seen ({@link longestMs}, which also stops the watch).
 */
function eventLoopPauses(): { longestMs(): number } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  return {
    longestMs() {
      delay.disable();
      return delay.max / 1e6;
    },
  };
}

const runsOf = (job: string, key: string) => runs.filter((r) => r.job === job && r.key === key);
const queued = async (name: string) =>
  db.knex.raw("select attempts, max_attempts, last_error from graphile_worker.jobs where task_identifier = ?", [name]);

describe("enqueue in the caller's transaction", () => {
  it("runs nothing for a rolled-back transaction and runs a committed one once", async () => {
    const jobs = api.skiff.services.jobs;
    await expect(
      db.knex.transaction(async (trx) => {
        await jobs.enqueue(trx, "test.record", { key: "rolled-back" });
        throw new Error("request failed");
      }),
    ).rejects.toThrow("request failed");
    await db.knex.transaction(async (trx) => {
      await jobs.enqueue(trx, "test.record", { key: "committed" });
    });
    await until(() => runsOf("test.record", "committed").length === 1);
    await drainJobs(db.knex);
    expect(runsOf("test.record", "committed")).toHaveLength(1);
    expect(runsOf("test.record", "committed")[0]!.instance).not.toBe("api");
    expect(runsOf("test.record", "rolled-back")).toEqual([]);
    expect((await queued("test.record")).rows).toEqual([]);
  });

  it("refuses unknown jobs and payloads that fail the schema at enqueue time", async () => {
    const jobs = api.skiff.services.jobs;
    await expect(jobs.enqueue(db.knex, "test.nope", {})).rejects.toThrow(JobPayloadError);
    await expect(jobs.enqueue(db.knex, "test.strict", { key: "x", amount: "ten" })).rejects.toThrow(/amount/);
    await expect(jobs.enqueue(db.knex, "test.record", [1, 2])).rejects.toThrow(/JSON object/);
  });
});

describe("enqueueMany", () => {
  it("adds many jobs in one statement in the caller's transaction: all run once, or none after a rollback", async () => {
    const jobs = api.skiff.services.jobs;
    const keys = Array.from({ length: 20 }, (_, i) => `batch-${i}`);
    await expect(
      db.knex.transaction(async (trx) => {
        await jobs.enqueueMany(
          trx,
          "test.record",
          keys.map((key) => ({ payload: { key: `rolled-${key}` } })),
        );
        throw new Error("request failed");
      }),
    ).rejects.toThrow("request failed");
    const ids = await db.knex.transaction((trx) =>
      jobs.enqueueMany(
        trx,
        "test.record",
        keys.map((key) => ({ payload: { key }, options: { jobKey: `batch:${key}` } })),
      ),
    );
    expect(ids).toHaveLength(keys.length);
    await until(() => keys.every((k) => runsOf("test.record", k).length > 0));
    await drainJobs(db.knex);
    expect(keys.map((k) => runsOf("test.record", k).length)).toEqual(keys.map(() => 1));
    expect(runs.filter((r) => r.key.startsWith("rolled-"))).toEqual([]);
    await expect(jobs.enqueueMany(db.knex, "test.strict", [{ payload: { key: "x", amount: "ten" } }])).rejects.toThrow(
      /amount/,
    );
  });
});

describe("several instances on one database", () => {
  it("runs each of 50 jobs exactly once, on the instances that run workers", async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `many-${i}`);
    await db.knex.transaction(async (trx) => {
      for (const key of keys) await api.skiff.services.jobs.enqueue(trx, "test.record", { key, sleepMs: 20 });
    });
    await until(() => keys.every((k) => runsOf("test.record", k).length > 0));
    await drainJobs(db.knex);
    const counts = keys.map((k) => runsOf("test.record", k).length);
    expect(counts).toEqual(keys.map(() => 1));
    const byInstance = Object.groupBy(
      runs.filter((r) => r.key.startsWith("many-")),
      (r) => r.instance,
    );
    expect(byInstance.api).toBeUndefined();
    expect(api.skiff.runner).toBeNull();
    console.info(
      `50 jobs: ${Object.entries(byInstance)
        .map(([k, v]) => `${k} ran ${v!.length}`)
        .join(", ")}`,
    );
  });

  it("starts a job scheduled with runAt within 250 ms of its time, never before", async () => {
    const pauses = eventLoopPauses();
    const now = Date.now();
    const due = [300, 700, 1200].map((ms, i) => ({ key: `at-${i}`, at: now + ms }));
    for (const d of due) {
      await api.skiff.services.jobs.enqueue(db.knex, "test.record", { key: d.key }, { runAt: new Date(d.at) });
    }
    await until(() => due.every((d) => runsOf("test.record", d.key).length === 1));
    const pauseMs = pauses.longestMs();
    const late = due.map((d) => runsOf("test.record", d.key)[0]!.startedAt - d.at);
    console.info(`runAt lateness (ms): ${late.join(", ")}; longest event-loop pause ${pauseMs.toFixed(0)} ms`);
    for (const ms of late) {
      expect(ms).toBeGreaterThanOrEqual(0);
      // Still well under graphile-worker's 2 s poll, which is what would start a job the wake-up missed.
      expect(ms).toBeLessThan(250 + pauseMs);
    }
  });

  it("starts a new job on its LISTEN wake-up, not by polling, and one enqueued while LISTEN was down once it is back (a runner polling once a minute; figures printed)", async () => {
    // A runner of its own on a database of its own, polling once a minute: only graphile-worker's LISTEN for new
    // jobs can start a job within the 5 s allowed below, so a broken LISTEN (polling left) fails this test.
    const listenDb = await createTestDatabase();
    const quiet = await startJobServer(listenDb.url, "listen", { SKIFF_WORKER: "false" });
    const runner = await startJobRunner({
      databaseUrl: listenDb.url,
      queue: quiet.skiff.services.jobs,
      services: quiet.skiff.services,
      log: pino({ level: "silent" }),
      concurrency: 2,
      pollIntervalMs: 60_000,
    });
    try {
      // The latencies below are of LISTEN wake-ups: the runner's LISTEN is in place before the first job.
      await until(async () => {
        const { rows } = await listenDb.knex.raw(
          "select 1 from pg_stat_activity where datname = current_database() and query ilike 'listen%jobs:insert%'",
        );
        return rows.length > 0;
      }, 30_000);
      const latencies: number[] = [];
      for (let i = 0; i < 20; i++) {
        const key = `latency-${i}`;
        const t0 = Date.now();
        await quiet.skiff.services.jobs.enqueue(listenDb.knex, "test.record", { key });
        await until(() => runsOf("test.record", key).length === 1, 5000);
        const [run] = runsOf("test.record", key);
        expect(run!.instance).toBe("listen");
        latencies.push(run!.startedAt - t0);
      }
      latencies.sort((x, y) => x - y);
      console.info(`enqueue → first attempt: p50 ${latencies[10]} ms, max ${latencies[19]} ms (20 jobs)`);
      // Far below the minute a poll would take; the bound leaves room for a loaded machine.
      expect(latencies[19]).toBeLessThan(5000);

      // A job enqueued while the LISTEN connection is down is announced to no one: the runner fetches once its
      // LISTEN is back, rather than at the next poll a minute later.
      await listenDb.knex.raw(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%jobs:insert%'",
      );
      const t0 = Date.now();
      await quiet.skiff.services.jobs.enqueue(listenDb.knex, "test.record", { key: "listen-down" });
      await until(() => runsOf("test.record", "listen-down").length === 1, 5000);
      console.info(
        `enqueued while LISTEN was down: started ${runsOf("test.record", "listen-down")[0]!.startedAt - t0} ms after`,
      );
    } finally {
      await runner.stop();
      await quiet.skiff.stop();
      await listenDb.drop();
    }
  });
});

describe("retry policies", () => {
  it("fails an invalid payload for good with a log line, without running the handler or retrying", async () => {
    // Written past the schema check, as an older version of the code or a hand-made row would.
    await db.knex.raw(
      "select graphile_worker.add_job('test.strict', json_build_object('key', 'bad', 'amount', 'ten'))",
    );
    // graphile-worker counts the attempt when it takes the job, and records the error when it fails it.
    await until(async () => {
      const [job] = (await queued("test.strict")).rows;
      return job?.attempts === 1 && job.last_error !== null;
    });
    await new Promise((r) => setTimeout(r, 300));
    const [row] = (await queued("test.strict")).rows;
    expect(row).toMatchObject({ attempts: 1, max_attempts: 1 });
    expect(row.last_error).toMatch(/Invalid payload: amount/);
    expect(runsOf("test.strict", "bad")).toEqual([]);
    const line = [...a.logs, ...b.logs].find((l) => l.job === "test.strict" && l.level === 50);
    expect(line?.msg).toMatch(/invalid payload: failed for good/);
    expect(line?.issues).toEqual([expect.stringContaining("amount")]);
  });

  it("never retries a job whose policy is `none`", async () => {
    await api.skiff.services.jobs.enqueue(db.knex, "test.once", { key: "relay" });
    await until(async () => (await queued("test.once")).rows[0]?.attempts === 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(runsOf("test.once", "relay")).toHaveLength(1);
    const [row] = (await queued("test.once")).rows;
    expect(row).toMatchObject({ attempts: 1, max_attempts: 1, last_error: "relay relay refused" });
  });

  it("retries a `waits` job after exactly its waits (200 ms, then 500 ms), then keeps it as failed", async () => {
    const pauses = eventLoopPauses();
    await api.skiff.services.jobs.enqueue(db.knex, "test.waits", { key: "hook" });
    await until(() => runsOf("test.waits", "hook").length === 3, 5000);
    const pauseMs = pauses.longestMs();
    const attempts = runsOf("test.waits", "hook");
    expect(attempts.map((r) => r.attempt)).toEqual([1, 2, 3]);
    const gaps = [attempts[1]!.startedAt - attempts[0]!.startedAt, attempts[2]!.startedAt - attempts[1]!.startedAt];
    console.info(
      `waits policy gaps (ms): ${gaps.join(", ")} (configured 200, 500); longest event-loop pause ${pauseMs.toFixed(0)} ms`,
    );
    expect(gaps[0]).toBeGreaterThanOrEqual(200);
    expect(gaps[0]).toBeLessThan(200 + 250 + pauseMs);
    expect(gaps[1]).toBeGreaterThanOrEqual(500);
    expect(gaps[1]).toBeLessThan(500 + 250 + pauseMs);
    await until(async () => (await queued("test.waits")).rows[0]?.attempts === 1);
    await new Promise((r) => setTimeout(r, 700));
    expect(runsOf("test.waits", "hook")).toHaveLength(3);
    const { rows } = await queued("test.waits");
    expect(rows).toEqual([{ attempts: 1, max_attempts: 1, last_error: "delivery hook failed at attempt 3" }]);
  });

  it("lists queued and failed jobs with `skiff jobs` and counts them in the metrics", async () => {
    await api.skiff.services.jobs.enqueue(db.knex, "test.record", { key: "later" }, { runAt: new Date("2099-01-01") });
    const { stdout } = await promisify(execFile)(process.execPath, ["src/cli.ts", "jobs"], {
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: "silent" },
    });
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATE\s+ATTEMPTS\s+RUN AT\s+LAST ERROR$/);
    expect(stdout).toMatch(/test\.waits\s+failed\s+3\/3\s+\S+\s+delivery hook failed at attempt 3/);
    expect(stdout).toMatch(/test\.once\s+failed\s+1\/1\s+\S+\s+relay relay refused/);
    expect(stdout).toMatch(/test\.strict\s+failed\s+1\/1\s+\S+\s+Invalid payload: amount/);
    expect(stdout).toMatch(/test\.record\s+queued\s+0\/25\s+2099-01-01T00:00:00\.000Z/);
    const failedOnly = await promisify(execFile)(process.execPath, ["src/cli.ts", "jobs", "--failed"], {
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: "silent" },
    });
    expect(failedOnly.stdout).not.toContain("test.record");

    const metrics = await client.register.metrics();
    expect(metrics).toMatch(/skiff_jobs_queued\{task="test.record"\} 1/);
    expect(metrics).toMatch(/skiff_jobs_permanently_failed\{task="test.waits"\} 1/);
    expect(metrics).toMatch(/skiff_jobs_failed_total\{task="test.waits",outcome="retry"\} 2/);
    expect(metrics).toMatch(/skiff_jobs_failed_total\{task="test.once",outcome="permanent"\} 1/);
    expect(metrics).toMatch(/skiff_job_duration_seconds_count\{task="test.record",result="success"\} \d+/);
  });

  it("registers recurring jobs with graphile-worker's crontab (once per database)", async () => {
    // Modules' own recurring jobs (e.g. webhooks.prune) are registered too; this test's is there exactly once.
    const { rows } = await db.knex.raw(
      "select identifier from graphile_worker._private_known_crontabs where identifier like 'test.%'",
    );
    expect(rows).toEqual([{ identifier: "test.tick" }]);
  });
});
