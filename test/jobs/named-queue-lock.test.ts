/**
 * One job of a named queue at a time, whatever graphile-worker's own queue does (src/jobs/job-queue-lock.ts).
 * Two instances share the queue; the test breaks graphile-worker's guarantee on purpose: while a job of a named
 * queue runs, `force_unlock_workers` frees its holder (what the liveness sweep does to a live runner it takes for
 * dead, and in effect what graphile-worker 0.17.3's local queue did, graphile/worker#621), and a new job wakes the
 * idle workers, so another worker takes the running job again at once. The queue's advisory lock refuses that second
 * run, which is rescheduled, not failed: no two runs of one queue overlap, and every job runs. And the lock dies
 * with its holder: a process holding it, SIGKILLed, frees it at once.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUEUE_LOCK_CLASS } from "../../src/jobs/job-queue-lock.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { type JobServer, type Run, runs, startJobServer, until } from "./job-fixture.ts";

let db: TestDatabase;
let a: JobServer;
let b: JobServer;

beforeAll(async () => {
  db = await createTestDatabase();
  [a, b] = await Promise.all([startJobServer(db.url, "a"), startJobServer(db.url, "b")]);
});
afterAll(async () => {
  await Promise.all([a?.skiff.stop(), b?.skiff.stop()]);
  await db?.drop();
});

const BUSY = "another run of its queue holds it";
const busyLines = () => [...a.logs, ...b.logs].filter((l) => String(l.msg).includes(BUSY)).length;

/**
 * Frees every lock graphile-worker holds (jobs and queues) for every worker and pool of both instances, as a
 * liveness sweep taking them for dead would, then wakes the idle workers with a job of no queue.
 */
async function breakQueueLocks(nudge: string): Promise<void> {
  await db.knex.raw("select graphile_worker.force_unlock_workers(array(select worker_id from job_workers))");
  await a.skiff.services.jobs.enqueue(db.knex, "test.record", { key: nudge });
}

/** Runs of `keys` (finished ones), by start time; throws if two overlap. */
function serialRuns(keys: readonly string[]): Run[] {
  const mine = runs
    .filter((r) => r.job === "test.record" && keys.includes(r.key))
    .sort((x, y) => x.startedAt - y.startedAt);
  for (let i = 1; i < mine.length; i++) {
    const [before, after] = [mine[i - 1]!, mine[i]!];
    if (before.finishedAt === undefined || after.startedAt < before.finishedAt) {
      throw new Error(`runs overlap: ${JSON.stringify(before)} and ${JSON.stringify(after)}`);
    }
  }
  return mine;
}

describe("a named queue runs one job at a time, enforced by its advisory lock", () => {
  it("reschedules a second run of a running job taken again by another worker, and runs it after the first", async () => {
    const jobs = a.skiff.services.jobs;
    const busyBefore = busyLines();
    await jobs.enqueue(db.knex, "test.record", { key: "lock-1", sleepMs: 1500 }, { queueName: "serial:one" });
    await until(() => runs.some((r) => r.key === "lock-1"));
    await breakQueueLocks("nudge-1");
    // The second run finds the lock held: rescheduled (2 s later), not failed, and not run beside the first.
    await until(() => busyLines() > busyBefore, 5000);
    await until(() => runs.filter((r) => r.key === "lock-1" && r.finishedAt).length === 2, 10_000);
    await drainJobs(db.knex);
    const [first, second] = serialRuns(["lock-1"]);
    expect(second!.startedAt).toBeGreaterThanOrEqual(first!.finishedAt!);
    // Not counted as a failed attempt: graphile-worker counted attempt 2 when it took the running job again; the
    // rescheduled run is that attempt, not a third, and no error was recorded.
    expect(second!.attempt).toBe(2);
    const { rows } = await db.knex.raw(
      "select count(*)::int as n from graphile_worker.jobs where last_error is not null",
    );
    expect(rows[0].n).toBe(0);
  }, 30_000);

  it("keeps six jobs of one queue serial on two instances while graphile-worker's queue lock is dropped at every start", async () => {
    const jobs = b.skiff.services.jobs;
    const keys = Array.from({ length: 6 }, (_, i) => `serial-${i}`);
    const busyBefore = busyLines();
    for (const key of keys)
      await jobs.enqueue(db.knex, "test.record", { key, sleepMs: 300 }, { queueName: "serial:many" });
    // Whenever a job of the queue starts, its queue is made available again while the job runs (graphile/worker#621's
    // effect): any worker may take the next job of the queue at once.
    let seen = 0;
    const deadline = Date.now() + 40_000;
    while (keys.some((k) => !runs.some((r) => r.key === k && r.finishedAt)) && Date.now() < deadline) {
      const started = runs.filter((r) => keys.includes(r.key)).length;
      if (started > seen) {
        seen = started;
        await db.knex.raw(
          "update graphile_worker._private_job_queues set locked_by = null, locked_at = null where queue_name = 'serial:many'",
        );
        await jobs.enqueue(db.knex, "test.record", { key: `nudge-many-${seen}` });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    await drainJobs(db.knex, 15_000);
    const ran = serialRuns(keys);
    // Each job ran once (none lost, none doubled), one after the other, whichever worker took it.
    expect(ran.map((r) => r.key).sort()).toEqual(keys);
    const busy = busyLines() - busyBefore;
    console.info(`${ran.length} runs of ${keys.length} jobs, none overlapping; ${busy} runs put off by the lock`);
    expect(busy).toBeGreaterThan(0);
  }, 60_000);

  it("puts a job off while another process holds its queue's lock, and runs it once that process is SIGKILLed", async () => {
    const jobs = a.skiff.services.jobs;
    // The queue's row exists once a job of it was added (graphile-worker keeps it); its id keys the lock.
    await jobs.enqueue(db.knex, "test.record", { key: "kill-first" }, { queueName: "serial:kill" });
    await until(() => runs.some((r) => r.key === "kill-first" && r.finishedAt));
    const { rows } = await db.knex.raw(
      "select id from graphile_worker._private_job_queues where queue_name = 'serial:kill'",
    );
    const holder = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import pg from "pg";
         const c = new pg.Client(process.argv[1]); await c.connect();
         const { rows } = await c.query("select pg_try_advisory_lock($1, $2) as ok", [${QUEUE_LOCK_CLASS}, ${rows[0].id}]);
         console.log(rows[0].ok ? "locked" : "refused");
         setInterval(() => {}, 1000);`,
        db.url,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const [line] = (await once(holder.stdout!, "data")) as [Buffer];
    expect(String(line).trim()).toBe("locked");
    const busyBefore = busyLines();
    await jobs.enqueue(db.knex, "test.record", { key: "kill-second" }, { queueName: "serial:kill" });
    await until(() => busyLines() > busyBefore, 10_000);
    expect(runs.some((r) => r.key === "kill-second")).toBe(false);
    holder.kill("SIGKILL");
    await once(holder, "exit");
    const killedAt = Date.now();
    await until(() => runs.some((r) => r.key === "kill-second" && r.finishedAt), 15_000);
    await drainJobs(db.knex);
    const second = runs.filter((r) => r.key === "kill-second");
    expect(second).toHaveLength(1);
    expect(second[0]!.startedAt).toBeGreaterThanOrEqual(killedAt);
  }, 40_000);
});
