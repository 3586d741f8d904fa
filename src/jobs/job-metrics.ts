/**
 * Job metrics on prom-client's default registry (served at `/metrics` by the transport):
 * - `skiff_jobs_queued{task}`: jobs waiting or running (attempts left), read from the database at scrape time;
 * - `skiff_jobs_permanently_failed{task}`: failed jobs kept in the queue (no attempts left);
 * - `skiff_jobs_failed_total{task, outcome}`: failed attempts in this process, `outcome` = `retry` | `permanent`;
 * - `skiff_job_duration_seconds{task, result}`: handler run time, `result` = `success` | `failure`;
 * - `skiff_job_runners_down`: this process's job runners whose worker pool exited unexpectedly and that wait to be
 *   restarted (0 when all run; see job-runner.ts);
 * - `skiff_job_runner_restarts_total`: worker pools restarted after an unexpected exit, in this process.
 * Registered once per process at start (src/server/start.ts calls {@link jobMetrics} with the instance's job names,
 * worker or not); each known task is exported at 0 in the labelled series (both outcomes, both results, and the two
 * gauges while a runner of this process reads a queue), so `rate()` and absent-alerts work from the first scrape.
 * Every running job runner adds its database as a source of the two gauges (one source per
 * database, whatever the number of runners on it).
 */
import type { Knex } from "knex";
import client from "prom-client";
import { JOB_SCHEMA } from "./job-queue.ts";

/** The job metrics of this process (see the file comment). */
export interface JobMetrics {
  failures: client.Counter<"task" | "outcome">;
  duration: client.Histogram<"task" | "result">;
  /** Runners of this process waiting to restart their worker pool. */
  runnersDown: client.Gauge;
  /** Worker pools restarted after an unexpected exit. */
  restarts: client.Counter;
  /**
   * Adds the database of `databaseUrl` (read through `knex`) to the queues the gauges report, once however many
   * runners of this process use it; the returned function removes this runner's claim.
   */
  addSource(databaseUrl: string, knex: Knex): () => void;
}

let metrics: JobMetrics | undefined;
const sources = new Map<string, { knex: Knex; runners: number }>();
/** Task names exported at 0 (every job definition an instance of this process registered). */
const knownTasks = new Set<string>();

/**
 * The process-wide {@link JobMetrics}, registered on the default registry on first use; `tasks` (job names) are added
 * to the known tasks and their labelled series created at 0.
 */
export function jobMetrics(tasks: Iterable<string> = []): JobMetrics {
  const current = metrics ?? createJobMetrics();
  for (const task of tasks) {
    if (knownTasks.has(task)) continue;
    knownTasks.add(task);
    for (const outcome of ["retry", "permanent"]) current.failures.inc({ task, outcome }, 0);
    for (const result of ["success", "failure"]) current.duration.zero({ task, result });
  }
  return current;
}

function createJobMetrics(): JobMetrics {
  // One query per scrape fills both gauges.
  let pending: Promise<void> | null = null;
  const refresh = (): Promise<void> => {
    pending ??= readDepth(queued, dead).finally(() => {
      pending = null;
    });
    return pending;
  };
  const queued: client.Gauge<"task"> = new client.Gauge({
    name: "skiff_jobs_queued",
    help: "Background jobs waiting or running, by task",
    labelNames: ["task"] as const,
    collect: refresh,
  });
  const dead: client.Gauge<"task"> = new client.Gauge({
    name: "skiff_jobs_permanently_failed",
    help: "Background jobs that failed for good and are kept in the queue, by task",
    labelNames: ["task"] as const,
    collect: refresh,
  });
  metrics = {
    failures: new client.Counter({
      name: "skiff_jobs_failed_total",
      help: "Failed background job attempts in this process, by task and outcome (retry or permanent)",
      labelNames: ["task", "outcome"] as const,
    }),
    duration: new client.Histogram({
      name: "skiff_job_duration_seconds",
      help: "Run time of background job handlers, by task and result",
      labelNames: ["task", "result"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    }),
    runnersDown: new client.Gauge({
      name: "skiff_job_runners_down",
      help: "Job runners of this process whose worker pool exited unexpectedly and that wait to restart it",
    }),
    restarts: new client.Counter({
      name: "skiff_job_runner_restarts_total",
      help: "Job worker pools restarted after an unexpected exit (e.g. a database outage) in this process",
    }),
    addSource(databaseUrl, knex) {
      const source = sources.get(databaseUrl) ?? { knex, runners: 0 };
      source.runners += 1;
      sources.set(databaseUrl, source);
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        source.runners -= 1;
        if (source.runners === 0) sources.delete(databaseUrl);
      };
    },
  };
  return metrics;
}

async function readDepth(queued: client.Gauge<"task">, dead: client.Gauge<"task">): Promise<void> {
  const totals = new Map<string, { queued: number; dead: number }>();
  for (const { knex } of sources.values()) {
    const { rows } = await knex
      .raw(
        `select task_identifier as task, count(*) filter (where attempts < max_attempts)::int as queued,
                count(*) filter (where attempts >= max_attempts)::int as dead
           from ${JOB_SCHEMA}.jobs group by task_identifier`,
      )
      .catch(() => ({ rows: [] as Array<{ task: string; queued: number; dead: number }> }));
    for (const r of rows as Array<{ task: string; queued: number; dead: number }>) {
      const t = totals.get(r.task) ?? { queued: 0, dead: 0 };
      totals.set(r.task, { queued: t.queued + r.queued, dead: t.dead + r.dead });
    }
  }
  queued.reset();
  dead.reset();
  // A queue is read (this process runs a job runner): every known task has a depth, 0 when it has no job.
  if (sources.size > 0) {
    for (const task of knownTasks) if (!totals.has(task)) totals.set(task, { queued: 0, dead: 0 });
  }
  for (const [task, t] of totals) {
    queued.set({ task }, t.queued);
    dead.set({ task }, t.dead);
  }
}
