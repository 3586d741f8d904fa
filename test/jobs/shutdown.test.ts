/**
 * Graceful shutdown of the job runner: `stop` lets a running job finish; a job still running after
 * SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS is aborted and returned to the queue, where another instance runs it again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type JobServer, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
const started: JobServer[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.skiff.stop()));
  await db?.drop();
});

async function server(label: string, env: Record<string, string> = {}): Promise<JobServer> {
  const s = await startJobServer(db.url, label, env);
  started.push(s);
  return s;
}

/** Stops `s` (so that the next test's jobs run only where it expects them). */
async function retire(s: JobServer): Promise<void> {
  started.splice(started.indexOf(s), 1);
  await s.skiff.stop();
}

const runsOf = (key: string) => runs.filter((r) => r.job === "test.stubborn" && r.key === key);
const row = async () =>
  (
    await db.knex.raw(
      "select attempts, max_attempts, last_error, locked_at from graphile_worker.jobs where task_identifier = 'test.stubborn'",
    )
  ).rows;

describe("stop()", () => {
  it("lets a running job finish before it resolves, and the finished job leaves the queue", async () => {
    const s = await server("patient");
    await s.skiff.services.jobs.enqueue(db.knex, "test.stubborn", { key: "finish", sleepMs: 600 });
    await until(() => runsOf("finish").length === 1);
    await retire(s);
    const stoppedAt = Date.now();
    const [run] = runsOf("finish");
    expect(run!.finishedAt).toBeDefined();
    expect(run!.finishedAt!).toBeLessThanOrEqual(stoppedAt);
    // The job slept its whole 600 ms (a timer may fire up to a few ms early against Date.now(), hence the margin).
    expect(run!.finishedAt! - run!.startedAt).toBeGreaterThanOrEqual(590);
    expect(await row()).toEqual([]);
  });

  it("returns a job still running after the shutdown timeout to the queue, where another instance runs it", async () => {
    const s = await server("hasty", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "200" });
    await s.skiff.services.jobs.enqueue(db.knex, "test.stubborn", { key: "return", sleepMs: 4000 });
    await until(() => runsOf("return").length === 1);
    const t0 = Date.now();
    await retire(s);
    const stopMs = Date.now() - t0;
    console.info(`stop() with a job over the 200 ms shutdown timeout took ${stopMs} ms`);
    expect(stopMs).toBeLessThan(3000);
    expect(runsOf("return")[0]!.finishedAt).toBeUndefined();
    expect(await row()).toEqual([
      { attempts: 1, max_attempts: 25, last_error: "Interrupted by shutdown", locked_at: null },
    ]);

    // graphile-worker's backoff makes it due again after e^1 ≈ 2.7 s.
    const next = await server("next", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "200" });
    await until(() => runsOf("return").length === 2, 8000);
    expect(runsOf("return").map((r) => [r.instance, r.attempt])).toEqual([
      ["hasty", 1],
      ["next", 2],
    ]);
    await retire(next);
  });

  it("returns an interrupted `waits` job to the queue as the same attempt, due at once", async () => {
    const s = await server("interrupted", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "200" });
    await s.skiff.services.jobs.enqueue(db.knex, "test.slow-waits", { key: "hook", sleepMs: 4000 });
    const slow = () => runs.filter((r) => r.job === "test.slow-waits");
    await until(() => slow().length === 1);
    await retire(s);
    const { rows } = await db.knex.raw(
      `select j.attempts, j.max_attempts, j.run_at <= now() as due, j.payload -> '_retry' as retry
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'test.slow-waits'`,
    );
    expect(rows).toEqual([
      // max_attempts 2: the fallback attempt when a retry cannot be queued (maxAttemptsOf).
      { attempts: 0, max_attempts: 2, due: true, retry: { attempt: 1, lastError: "Interrupted by shutdown" } },
    ]);
    await server("resumer", { SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "200" });
    await until(() => slow().length === 2, 8000);
    expect(slow().map((r) => [r.instance, r.attempt])).toEqual([
      ["interrupted", 1],
      ["resumer", 1],
    ]);
  });
});
