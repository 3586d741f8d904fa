/**
 * Reading the queue for operators (`npm run skiff -- jobs`): queued, running and failed jobs with their attempts,
 * last error and run time. Attempts and last error of a `waits` job count its earlier attempts too (they were
 * separate rows, see job-runner.ts), which needs the payload: hence graphile-worker's `_private_jobs` table (its
 * public `jobs` view hides payloads); read only.
 */
import type { Knex } from "knex";
import { JOB_SCHEMA, RETRY_KEY } from "./job-queue.ts";

/** One job as listed. */
export interface ListedJob {
  id: string;
  name: string;
  /** `queued` (waiting, attempts left), `running` (locked by a worker), `failed` (no attempts left). */
  state: "queued" | "running" | "failed";
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  lastError: string | null;
  jobKey: string | null;
}

/** Which jobs {@link listJobs} returns. */
export interface ListJobsOptions {
  /** Default `all`. */
  state?: "queued" | "failed" | "all";
  /** Most jobs returned (default 50); failed first, then by run time. */
  limit?: number;
}

/**
 * Jobs in the queue of `knex`'s database, failed first, then by run time.
 * @returns `null` when graphile-worker's schema is not installed (the server never started on this database).
 */
export async function listJobs(knex: Knex, options: ListJobsOptions = {}): Promise<ListedJob[] | null> {
  const installed = await knex.raw("select to_regclass(?) as t", [`${JOB_SCHEMA}._private_jobs`]);
  if (!(installed.rows as Array<{ t: string | null }>)[0]?.t) return null;
  const state = options.state ?? "all";
  const filter =
    state === "failed"
      ? "where j.attempts >= j.max_attempts"
      : state === "queued"
        ? "where j.attempts < j.max_attempts"
        : "";
  const retry = `j.payload -> '${RETRY_KEY}'`;
  const { rows } = await knex.raw(
    `select j.id::text as id, t.identifier as name, j.run_at as "runAt", j.key as "jobKey", j.locked_at as "lockedAt",
            j.attempts + coalesce((${retry} ->> 'attempt')::int - 1, 0) as attempts,
            j.max_attempts + coalesce((${retry} ->> 'attempt')::int - 1, 0) as "maxAttempts",
            j.attempts >= j.max_attempts as failed,
            coalesce(j.last_error, ${retry} ->> 'lastError') as "lastError"
       from ${JOB_SCHEMA}._private_jobs j join ${JOB_SCHEMA}._private_tasks t on t.id = j.task_id ${filter}
      order by (j.attempts >= j.max_attempts) desc, j.run_at, j.id
      limit ?`,
    [options.limit ?? 50],
  );
  return (rows as Array<ListedJob & { failed: boolean; lockedAt: Date | null }>).map(({ failed, lockedAt, ...j }) => ({
    ...j,
    state: failed ? "failed" : lockedAt ? "running" : "queued",
  }));
}

/** `jobs` as a plain-text table (one line per job; the last error shortened to one line of 120 characters). */
export function formatJobs(jobs: readonly ListedJob[]): string {
  if (jobs.length === 0) return "No queued or failed jobs.\n";
  const rows = jobs.map((j) => [
    j.id,
    j.name,
    j.state,
    `${j.attempts}/${j.maxAttempts}`,
    j.runAt.toISOString(),
    (j.lastError ?? "").replace(/\s+/g, " ").slice(0, 120),
  ]);
  const header = ["ID", "NAME", "STATE", "ATTEMPTS", "RUN AT", "LAST ERROR"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}
