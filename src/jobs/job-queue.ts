/**
 * Enqueueing background jobs **inside the caller's transaction** (ARCHITECTURE "Background work is a job"): the
 * row is written by graphile-worker's SQL function `graphile_worker.add_job(...)` on the Knex transaction (or
 * Knex instance) the caller passes, so a rolled-back request enqueues nothing and a committed one cannot lose
 * its job. Its NOTIFY is delivered at commit and wakes an idle worker of any instance at once.
 */
import type { Knex } from "knex";
import { EVENTS_CHANNEL } from "../shared/pubsub.ts";
import {
  BACKGROUND_PRIORITY,
  BACKGROUND_QUEUE,
  isBackground,
  type JobDefinition,
  maxAttemptsOf,
} from "./job-definition.ts";

/** The PostgreSQL schema graphile-worker's tables and functions live in. */
export const JOB_SCHEMA = "graphile_worker";

/**
 * PubSub topic (src/shared/pubsub.ts) announcing a job scheduled for later, payload `{ at }` (epoch ms). It is
 * sent inside the enqueueing transaction, beside graphile-worker's own NOTIFY, so it arrives only at commit.
 */
export const SCHEDULED_TOPIC = "jobs.scheduled";

/** Key of the payload property carrying the retry state of a `waits` job (attempt ≥ 2). */
export const RETRY_KEY = "_retry";

/** Retry state stored in the payload under {@link RETRY_KEY}. */
export interface RetryState {
  /** The attempt this job runs as (2 = first retry). */
  attempt: number;
  /** Message of the previous attempt's failure (none when no attempt failed: a run put off because its queue was busy). */
  lastError?: string;
  /** Runs of this attempt put off by its handler (`DeferJobError`); absent when none. */
  deferrals?: number;
}

/** Options of {@link JobQueue.enqueue}. */
export interface EnqueueOptions {
  /** Run no earlier than this (default: now). */
  runAt?: Date;
  /**
   * At most one pending job per key: enqueueing again replaces the waiting job's payload and run time
   * (`jobKeyMode: "preserve_run_at"` keeps its run time). A job already running is not affected.
   */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at";
  /** Overrides the attempts of a `backoff` job (ignored for `none` and `waits`, which define their own). */
  maxAttempts?: number;
  /** Lower runs first (default 0; background jobs always run at {@link BACKGROUND_PRIORITY}). */
  priority?: number;
  /**
   * Serial queue of this one job, overriding the definition's `queueName`: jobs of one queue run one at a time
   * across all instances (e.g. `deploy:<applicationId>`: one deployment per application at a time), enforced by the
   * queue's advisory lock as well as graphile-worker (job-queue-lock.ts).
   */
  queueName?: string;
}

/** Thrown by {@link JobQueue.enqueue} for an unknown job name or a payload its schema refuses (a programming error). */
export class JobPayloadError extends Error {
  override name = "JobPayloadError";
}

/** Enqueues registered jobs. */
export interface JobQueue {
  /**
   * Validates `payload` with the job's schema (as JSON, the form it is stored in) and adds the job through
   * `db`: pass the caller's transaction so the job commits or rolls back with it. `job` is the registered name or
   * the definition itself (which types the payload).
   * @returns the job id (decimal string).
   * @throws JobPayloadError for an unknown name, a payload that is not a JSON object, or a schema mismatch.
   */
  enqueue<P>(
    db: Knex | Knex.Transaction,
    job: string | JobDefinition<P>,
    payload: NoInfer<P>,
    options?: EnqueueOptions,
  ): Promise<string>;
  /**
   * {@link enqueue} for many jobs of one kind in one statement (graphile-worker's `add_jobs`): e.g. one event's
   * deliveries to many webhook endpoints. Every payload is validated first; all or none are added. Items may not mix
   * `jobKeyMode`s (add_jobs takes one).
   * @returns the job ids (decimal strings), in no particular order.
   * @throws JobPayloadError as {@link enqueue}, or when the items mix `jobKeyMode`s.
   */
  enqueueMany<P>(
    db: Knex | Knex.Transaction,
    job: string | JobDefinition<P>,
    items: ReadonlyArray<{ payload: NoInfer<P>; options?: EnqueueOptions }>,
  ): Promise<string[]>;
  /**
   * Removes the pending jobs with these job keys through `db` (graphile-worker's `remove_job`, so pass the
   * caller's transaction: the removal commits or rolls back with it). A job already running (locked) is left to
   * finish its attempt; unknown keys are ignored. Modules never write graphile-worker's tables themselves.
   * @returns how many jobs were removed.
   */
  remove(db: Knex | Knex.Transaction, jobKeys: readonly string[]): Promise<number>;
  /**
   * Makes the waiting jobs `jobIds` (decimal strings) due now (graphile-worker's `reschedule_jobs`) and wakes the
   * runners of every instance: e.g. a webhook attempt put off until a slot of its endpoint frees, once one does.
   * Jobs that are locked (running) or gone are left alone.
   * @returns the ids made due.
   */
  runNow(db: Knex | Knex.Transaction, jobIds: readonly string[]): Promise<string[]>;
  /**
   * Puts off to `runAt` the jobs with these keys that are due now and not running (graphile-worker's
   * `reschedule_jobs`), in one statement: e.g. a hung webhook endpoint's queued attempts, so that workers do not
   * fetch them one by one only to put each off.
   * @returns the jobs put off (`id`, `key`), oldest first.
   */
  postpone(
    db: Knex | Knex.Transaction,
    jobKeys: readonly string[],
    runAt: Date,
  ): Promise<Array<{ id: string; key: string }>>;
  /** The registered definition of `name`, if any. */
  definition(name: string): JobDefinition | undefined;
  /** Every registered definition. */
  readonly definitions: readonly JobDefinition[];
}

/**
 * Builds the queue of `definitions` (every module's jobs).
 * @throws Error when two definitions share a name.
 */
export function createJobQueue(definitions: readonly JobDefinition[]): JobQueue {
  const byName = new Map<string, JobDefinition>();
  for (const d of definitions) {
    if (byName.has(d.name)) throw new Error(`Two jobs are named "${d.name}"`);
    byName.set(d.name, d);
  }
  return {
    definitions,
    definition: (name) => byName.get(name),
    async enqueue(db, job, payload, options = {}) {
      return addJob(db, specOf(job, payload, options));
    },
    async enqueueMany(db, job, items) {
      const specs = items.map((item) => specOf(job, item.payload, item.options));
      return addJobs(db, specs);
    },
    async remove(db, jobKeys) {
      if (jobKeys.length === 0) return 0;
      const result = (await db.raw(
        "select count(*)::int as n from unnest(?::text[]) as k where (graphile_worker.remove_job(k)).id is not null",
        [[...jobKeys]],
      )) as { rows: Array<{ n: number }> };
      return result.rows[0]?.n ?? 0;
    },
    async runNow(db, jobIds) {
      if (jobIds.length === 0) return [];
      const { rows } = (await db.raw(
        `select array(select id::text from ${JOB_SCHEMA}.reschedule_jobs(?::bigint[], run_at => now())) as ids,
           pg_notify(?, ?)`,
        [[...jobIds], EVENTS_CHANNEL, JSON.stringify({ topic: SCHEDULED_TOPIC, payload: { at: Date.now() } })],
      )) as { rows: Array<{ ids: string[] }> };
      return rows[0]?.ids ?? [];
    },
    async postpone(db, jobKeys, runAt) {
      if (jobKeys.length === 0) return [];
      const { rows } = (await db.raw(
        `select r.id::text as id, r.key from ${JOB_SCHEMA}.reschedule_jobs(
           array(select j.id from ${JOB_SCHEMA}.jobs j
                  where j.key = any(?::text[]) and j.locked_at is null and j.run_at <= now()),
           run_at => ?::timestamptz) r
         order by r.id`,
        [[...jobKeys], runAt.toISOString()],
      )) as { rows: Array<{ id: string; key: string }> };
      return rows;
    },
  };

  /** The row for one job: validated payload, attempts by the definition's retry policy, its queue. */
  function specOf(job: string | JobDefinition, payload: unknown, options: EnqueueOptions = {}): JobSpec {
    const name = typeof job === "string" ? job : job.name;
    const definition = byName.get(name);
    if (!definition) throw new JobPayloadError(`No job is named "${name}"`);
    const json = toJsonObject(name, payload);
    const parsed = definition.payload.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(payload)"}: ${i.message}`);
      throw new JobPayloadError(`Invalid payload for job "${name}": ${issues.join("; ")}`);
    }
    const maxAttempts =
      definition.retry === undefined || definition.retry.kind === "backoff"
        ? (options.maxAttempts ?? maxAttemptsOf(definition.retry))
        : maxAttemptsOf(definition.retry);
    // Background work: its serial queue and low priority, whatever the caller asked (job-definition.ts).
    if (isBackground(definition)) {
      return {
        name,
        payload: json,
        maxAttempts,
        ...options,
        queueName: BACKGROUND_QUEUE,
        priority: BACKGROUND_PRIORITY,
      };
    }
    return { name, payload: json, maxAttempts, ...options, queueName: options.queueName ?? definition.queueName };
  }
}

/** One row for {@link addJob}. */
export interface JobSpec extends EnqueueOptions {
  name: string;
  payload: Record<string, unknown>;
  queueName?: string;
  maxAttempts: number;
}

/**
 * Adds a job with `graphile_worker.add_job` on `db` (no validation: {@link JobQueue.enqueue} and the runner's
 * retries call it). A future `runAt` is also announced as {@link SCHEDULED_TOPIC} so runners wake up on time.
 * @returns the job id.
 */
export async function addJob(db: Knex | Knex.Transaction, spec: JobSpec): Promise<string> {
  const runAt = spec.runAt ?? null;
  const later = runAt !== null && runAt.getTime() > Date.now();
  const { rows } = await db.raw(
    `select (${JOB_SCHEMA}.add_job(
        identifier => ?, payload => ?::json, queue_name => ?, run_at => ?::timestamptz, max_attempts => ?,
        job_key => ?, priority => ?, job_key_mode => ?
      )).id::text as id${later ? ", pg_notify(?, ?)" : ""}`,
    [
      spec.name,
      JSON.stringify(spec.payload),
      spec.queueName ?? null,
      runAt?.toISOString() ?? null,
      spec.maxAttempts,
      spec.jobKey ?? null,
      spec.priority ?? 0,
      spec.jobKeyMode ?? "replace",
      ...(later ? [EVENTS_CHANNEL, JSON.stringify({ topic: SCHEDULED_TOPIC, payload: { at: runAt.getTime() } })] : []),
    ],
  );
  return (rows as Array<{ id: string }>)[0]!.id;
}

/**
 * Adds the successor of the running job `runningJobId` (its next attempt, or a run put off) in one statement on
 * `db`: in the running job's queue and at its priority (read from its row), with `spec`'s name, payload, attempts,
 * run time and job key, and records the running job in `job_superseded` (see job-liveness.ts). Nothing is added
 * when the running job's row is gone (another run of it, taken twice, completed it). A future `runAt` is announced
 * as {@link SCHEDULED_TOPIC}.
 * @returns the new job's id, or null when nothing was added.
 */
export async function addSuccessorJob(
  db: Knex | Knex.Transaction,
  runningJobId: string,
  spec: Omit<JobSpec, "queueName" | "priority" | "jobKeyMode">,
): Promise<string | null> {
  const runAt = spec.runAt ?? null;
  const later = runAt !== null && runAt.getTime() > Date.now();
  const { rows } = await db.raw(
    `with running as (
       select id, queue_name, priority from ${JOB_SCHEMA}.jobs where id = ?::bigint
     ), superseded as (
       insert into job_superseded (job_id) select id from running on conflict do nothing
     )
     select (${JOB_SCHEMA}.add_job(
        identifier => ?, payload => ?::json, queue_name => running.queue_name, run_at => ?::timestamptz,
        max_attempts => ?, job_key => ?, priority => running.priority, job_key_mode => 'replace'
      )).id::text as id${later ? ", pg_notify(?, ?)" : ""}
     from running`,
    [
      runningJobId,
      spec.name,
      JSON.stringify(spec.payload),
      runAt?.toISOString() ?? null,
      spec.maxAttempts,
      spec.jobKey ?? null,
      ...(later ? [EVENTS_CHANNEL, JSON.stringify({ topic: SCHEDULED_TOPIC, payload: { at: runAt.getTime() } })] : []),
    ],
  );
  return (rows as Array<{ id: string }>)[0]?.id ?? null;
}

/**
 * Adds `specs` in one `graphile_worker.add_jobs` statement on `db` (no validation; see {@link JobQueue.enqueueMany}).
 * The earliest future `runAt` is announced as {@link SCHEDULED_TOPIC}.
 * @returns the job ids, in no particular order.
 * @throws JobPayloadError when the specs mix `jobKeyMode`s.
 */
export async function addJobs(db: Knex | Knex.Transaction, specs: readonly JobSpec[]): Promise<string[]> {
  if (specs.length === 0) return [];
  const modes = new Set(specs.map((s) => s.jobKeyMode ?? "replace"));
  if (modes.size > 1) throw new JobPayloadError("Jobs added together must share one jobKeyMode");
  const later = specs
    .map((s) => s.runAt?.getTime())
    .filter((t): t is number => t !== undefined && t > Date.now())
    .sort((a, b) => a - b)[0];
  const rows = specs.map((s) => ({
    identifier: s.name,
    payload: s.payload,
    queue_name: s.queueName ?? null,
    run_at: s.runAt?.toISOString() ?? null,
    max_attempts: s.maxAttempts,
    job_key: s.jobKey ?? null,
    priority: s.priority ?? 0,
  }));
  const { rows: result } = await db.raw(
    `select array(
       select id::text from ${JOB_SCHEMA}.add_jobs(
         (select array_agg(
            row(identifier, payload, queue_name, run_at, max_attempts, job_key, priority, null)::${JOB_SCHEMA}.job_spec)
          from json_to_recordset(?::json) as t(identifier text, payload json, queue_name text, run_at timestamptz,
            max_attempts smallint, job_key text, priority smallint)),
         ?)
     ) as ids${later === undefined ? "" : ", pg_notify(?, ?)"}`,
    [
      JSON.stringify(rows),
      modes.has("preserve_run_at"),
      ...(later === undefined
        ? []
        : [EVENTS_CHANNEL, JSON.stringify({ topic: SCHEDULED_TOPIC, payload: { at: later } })]),
    ],
  );
  return (result as Array<{ ids: string[] }>)[0]!.ids;
}

/** `payload` as a plain JSON object (what graphile-worker stores; arrays would mean batch jobs there). */
function toJsonObject(name: string, payload: unknown): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(JSON.stringify(payload ?? {}));
  } catch (e) {
    throw new JobPayloadError(`Payload of job "${name}" is not JSON: ${(e as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new JobPayloadError(`Payload of job "${name}" must be a JSON object`);
  }
  if (RETRY_KEY in json) throw new JobPayloadError(`Payload of job "${name}" may not use the key ${RETRY_KEY}`);
  return json as Record<string, unknown>;
}
