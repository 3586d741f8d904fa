/**
 * The in-process job runner: graphile-worker's runner on Skiff's own database, running the registered job
 * definitions with their retry policies. Every instance started with `SKIFF_WORKER=true` runs one; they share one
 * queue (a job is locked by one worker: it runs once). New jobs wake a worker through graphile-worker's
 * LISTEN/NOTIFY, scheduled ones through {@link createWakeups} (told by the `jobs.scheduled` PubSub topic). A job of a
 * named queue runs only while it holds the queue's advisory lock, else it is put off (job-queue-lock.ts). Background
 * jobs (recurring ones, health probes) run in one serial queue at a low priority, so ready user-facing jobs are
 * always fetched first and background work holds at most one worker (job-definition.ts). Ready jobs are also
 * polled for every `pollIntervalMs`, so they run while the LISTEN connection is down. `stop()`
 * lets running jobs finish for `shutdownTimeoutMs`, then aborts them:
 * an aborted job returns to the queue (a `waits` job as the same attempt, a `backoff` one as a failed attempt;
 * a `none` job fails for good, since it may have done part of its work). Jobs locked by a runner that died (SIGKILL,
 * lost machine) return to the queue at the next sweep of any live runner (job-liveness.ts), not after 4 hours.
 * graphile-worker's pool exits when it cannot record a job's end (a database outage): the runner then restarts it,
 * waiting 1 s, doubling up to 30 s between failed attempts, after freeing the dead pool's locks (same runner id,
 * new worker ids); `running` is false meanwhile (readiness, `skiff_job_runners_down`).
 */
import { EventEmitter } from "node:events";
import {
  type CronItem,
  type JobHelpers,
  parseCronItems,
  type Runner,
  run,
  type Task,
  type TaskList,
  type WorkerEvents,
  type WorkerPool,
} from "graphile-worker";
import type { Knex } from "knex";
import pg from "pg";
import type { Logger } from "pino";
import { bounded } from "../shared/bounded.ts";
import { storableText } from "../shared/storable-text.ts";
import {
  BACKGROUND_PRIORITY,
  BACKGROUND_QUEUE,
  DeferJobError,
  isBackground,
  type JobContext,
  type JobDefinition,
  type JobServices,
  maxAttemptsOf,
  PermanentJobError,
} from "./job-definition.ts";
import { startRunnerLiveness } from "./job-liveness.ts";
import { jobMetrics } from "./job-metrics.ts";
import {
  addSuccessorJob,
  JOB_SCHEMA,
  type JobQueue,
  RETRY_KEY,
  type RetryState,
  SCHEDULED_TOPIC,
} from "./job-queue.ts";
import { QUEUE_BUSY_RETRY_MS, tryLockQueue } from "./job-queue-lock.ts";
import { workerLogger } from "./job-schema.ts";
import { createWakeups } from "./job-wakeup.ts";

/** Options of {@link startJobRunner}. */
export interface JobRunnerOptions {
  /** Database of the queue (migrated with migrateJobSchema). */
  databaseUrl: string;
  /** The registered jobs (the manifests' `jobs`, gathered in src/modules/index.ts); the runner runs exactly these. */
  queue: JobQueue;
  /** Handed to every handler as `ctx.services`. */
  services: JobServices;
  log: Logger;
  /** Jobs run at once by this instance (SKIFF_WORKER_CONCURRENCY). */
  concurrency: number;
  /**
   * graphile-worker's local queue (SKIFF_WORKER_LOCAL_QUEUE): this many ready jobs are fetched and locked in one
   * query and handed to workers as they free up (default `concurrency`; 0 or 1: every worker fetches its own job).
   * Fewer queries per job; jobs locked here wait for this instance's workers (at most 5 minutes, then returned).
   */
  localQueueSize?: number;
  /**
   * Largest connection pool of graphile-worker (SKIFF_WORKER_POOL_MAX; default `concurrency + 2`, at least 2: its
   * LISTEN connection holds one). The liveness connection (job-liveness.ts) comes on top.
   */
  poolMax?: number;
  /** Fallback polling for due jobs, ms (default 2000; NOTIFY and timers do the real work). */
  pollIntervalMs?: number;
  /** How long `stop()` waits for running jobs before aborting them, ms (default 10 000). */
  shutdownTimeoutMs?: number;
  /** How often dead runners' jobs are looked for, ms (default 30 000; see job-liveness.ts). */
  sweepIntervalMs?: number;
  /** First wait before restarting a worker pool that exited unexpectedly, ms (default 1000; doubles per failure). */
  restartMinMs?: number;
  /** Longest wait between restart attempts, ms (default 30 000; after twice this of healthy running: back to the minimum). */
  restartMaxMs?: number;
}

/** A started runner. */
export interface JobRunner {
  /** Stops taking jobs, lets running ones finish (see the file comment), releases its connections. Idempotent. */
  stop(): Promise<void>;
  /** graphile-worker's events (`job:start`, `job:success`, `job:error`, …), for tests and diagnostics. */
  events: WorkerEvents;
  /** False while the worker pool is down (exited unexpectedly, waiting to restart) and once stopping. */
  readonly running: boolean;
  /**
   * graphile-worker's pool of session connections: background pollers use it (the webhooks' dispatcher claims
   * there), so that their idle statements neither take the request pool nor count among a request's statements.
   * Ended by `stop()`.
   */
  readonly pool: pg.Pool;
}

/** Connections graphile-worker's pool of a runner with `options` may open (see {@link JobRunnerOptions.poolMax}). */
export function workerPoolMax(options: { concurrency: number; poolMax?: number }): number {
  return Math.max(2, options.poolMax ?? options.concurrency + 2);
}

/**
 * `error` as an Error whose message and stack PostgreSQL can store: graphile-worker writes the message to the job's
 * `last_error` (text, which holds no NUL) as it fails the attempt, and a refused write leaves the job and its queue
 * locked. A NUL (from a remote system's message) becomes U+FFFD and a lone surrogate is made well formed; the
 * error's class is kept (PermanentJobError still means "no retry").
 */
function storableError(error: unknown): Error {
  const err = error instanceof Error ? error : new Error(String(error));
  if (storableText(err.message) !== err.message) err.message = storableText(err.message);
  if (err.stack && storableText(err.stack) !== err.stack) err.stack = storableText(err.stack);
  return err;
}

/** Raised inside a handler's race when the instance shuts down. */
class ShutdownAbort extends Error {
  override name = "ShutdownAbort";
}

/**
 * Starts graphile-worker's runner for `options.queue`'s definitions (graphile-worker's schema must exist).
 * @throws when the database is unreachable or a definition's `schedule.cron` is invalid.
 */
export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const { queue, services, log } = options;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 10_000;
  const localQueueSize = options.localQueueSize ?? options.concurrency;
  const metrics = jobMetrics();
  // First: a runner's workers must never be recorded before its named connection is up (see job-liveness.ts).
  const liveness = await startRunnerLiveness(options.databaseUrl, log, options.sweepIntervalMs);
  const knex = services.knex;
  const pgPool = new pg.Pool({ connectionString: options.databaseUrl, max: workerPoolMax(options) });
  pgPool.on("error", (err) => log.error({ err }, "job runner database pool error"));
  pgPool.on("connect", (client) => {
    client.on("error", (err) => log.error({ err }, "job runner database connection error"));
  });
  const taskList: TaskList = {};
  for (const definition of queue.definitions) {
    taskList[definition.name] = taskOf(definition as JobDefinition, { queue, services, log, knex, pgPool });
  }
  const cronItems: CronItem[] = queue.definitions
    .filter((d) => d.schedule)
    .map((d) => ({
      task: d.name,
      match: d.schedule!.cron,
      identifier: d.name,
      payload: d.schedule!.payload ?? {},
      options: {
        // Recurring jobs are background work (job-definition.ts): its serial queue, after user-facing jobs.
        ...(isBackground(d)
          ? { queueName: BACKGROUND_QUEUE, priority: BACKGROUND_PRIORITY }
          : { queueName: d.queueName }),
        jobKey: `cron:${d.name}`,
        jobKeyMode: "replace" as const,
      },
    }));
  const events: WorkerEvents = new EventEmitter();
  let pool: WorkerPool | undefined;
  const nudge = () => {
    try {
      pool?.nudge(options.concurrency);
    } catch (err) {
      // A pool shutting down on its own (e.g. a database failure) refuses nudges; its runner reports why.
      log.debug({ err }, "job queue: worker pool refused a wake-up");
    }
  };
  const wakeups = createWakeups(knex, nudge, (err) =>
    log.warn({ err }, "job queue: could not read the next scheduled job"),
  );
  // Lock holders of the current worker pool: freed by hand if the pool dies (see job-liveness.ts).
  let holders = new Set<string>();
  const hold = (id: string) => {
    holders.add(id);
    liveness.registerWorker(id);
  };
  events.on("worker:create", ({ worker }) => hold(worker.workerId));
  events.on("pool:create", ({ workerPool }) => {
    // With graphile-worker's local queue, jobs are locked by the pool's id; without it, by the worker's.
    hold(workerPool.id);
    pool = workerPool;
  });
  events.on("pool:release", ({ workerPool }) => {
    if (pool === workerPool) pool = undefined;
  });
  // (Re)connected to LISTEN: jobs may have been scheduled meanwhile, and jobs enqueued since the pool's last fetch
  // (its first one at start-up) were announced to no one. Once the connection's LISTEN has run, one fetch takes
  // them; later ones are announced. graphile-worker sends its LISTEN right after this event, in the same turn: a
  // statement queued on the same client in the next microtask answers after it. That statement is the same LISTEN
  // again (a no-op), so the connection's last statement, which diagnostics look for, stays a LISTEN.
  events.on("pool:listen:success", ({ client }) => {
    void wakeups.refresh();
    queueMicrotask(() => client.query('LISTEN "jobs:insert"').then(nudge, () => {}));
  });
  const unsubscribe = services.pubsub.subscribe(SCHEDULED_TOPIC, (p) => wakeups.dueAt(Number(p.at)));
  const startRun = () =>
    run({
      pgPool,
      // Explicit: graphile-worker would otherwise honour a GRAPHILE_WORKER_SCHEMA variable our SQL ignores.
      schema: JOB_SCHEMA,
      taskList,
      parsedCronItems: parseCronItems(cronItems),
      concurrency: options.concurrency,
      pollInterval: options.pollIntervalMs ?? 2000,
      noHandleSignals: true,
      logger: workerLogger(log),
      events,
      // Batched completion (delay 0) is flushed by graceful shutdown; unbatched completions could be cut off.
      preset: {
        worker: {
          // Running jobs are aborted 1 s before stop()'s end, leaving that second to return them to the queue.
          gracefulShutdownAbortTimeout: Math.max(0, shutdownTimeoutMs - 1000),
          completeJobBatchDelay: 0,
          failJobBatchDelay: 0,
          // Jobs fetched (and locked) per query, handed to workers as they free up; < 2: one query per job.
          ...(localQueueSize > 1 ? { localQueue: { size: localQueueSize } } : {}),
        },
      },
    });
  let runner: Runner | undefined;
  try {
    runner = await startRun();
  } catch (err) {
    wakeups.stop();
    unsubscribe();
    await liveness.stop();
    await pgPool.end();
    throw err;
  }
  const removeSource = metrics.addSource(options.databaseUrl, knex);
  log.info({ concurrency: options.concurrency, localQueueSize, jobs: Object.keys(taskList) }, "job worker started");

  // Supervision: a worker pool that exits on its own (graphile-worker gives up when it cannot record a job's end,
  // e.g. during a database outage) is restarted, with backoff, once the database answers again.
  const restartMinMs = options.restartMinMs ?? 1000;
  const restartMaxMs = options.restartMaxMs ?? 30_000;
  let halted = false;
  let startedAt = Date.now();
  let nextDelay = restartMinMs;
  let restarting: Promise<void> | undefined;
  const wake = new AbortController();
  const supervise = (r: Runner) => {
    r.promise.then(
      () => onExit(r, new Error("the worker pool exited by itself")),
      (err: unknown) => onExit(r, err),
    );
  };
  const onExit = (r: Runner, err: unknown) => {
    if (halted || runner !== r) return;
    runner = undefined;
    pool = undefined;
    const dead = [...holders];
    holders = new Set();
    // A pool that ran well for a while starts the backoff again from its minimum.
    if (Date.now() - startedAt > restartMaxMs * 2) nextDelay = restartMinMs;
    metrics.runnersDown.inc();
    log.error({ err, retryInMs: nextDelay }, "job runner: worker pool exited unexpectedly; restarting it");
    restarting = restartLoop(dead).finally(() => {
      restarting = undefined;
      metrics.runnersDown.dec();
    });
  };
  async function restartLoop(dead: string[]): Promise<void> {
    while (!halted) {
      const delay = nextDelay;
      nextDelay = Math.min(nextDelay * 2, restartMaxMs);
      await sleep(delay, wake.signal);
      if (halted) return;
      try {
        // The dead pool's locks first: its jobs run again (here or elsewhere), not after graphile-worker's 4 hours.
        await liveness.release(dead);
        const r = await startRun();
        if (halted) {
          await r.stop().catch(() => {});
          return;
        }
        runner = r;
        startedAt = Date.now();
        metrics.restarts.inc();
        supervise(r);
        log.info("job runner: worker pool restarted");
        void wakeups.refresh();
        return;
      } catch (err) {
        log.warn({ err, retryInMs: nextDelay }, "job runner: restart failed; retrying");
      }
    }
  }
  supervise(runner);

  let stopping: Promise<void> | undefined;
  return {
    events,
    pool: pgPool,
    get running() {
      return runner !== undefined && !halted;
    },
    stop() {
      // Bounded: at most `shutdownTimeoutMs` in all, whatever the database does. Jobs still running at
      // the abort (1 s before the end) are returned to the queue when the database answers; past the end they are
      // left locked by this runner, whose jobs the next liveness sweep of a live instance returns.
      stopping ??= (async () => {
        const end = Date.now() + shutdownTimeoutMs;
        const until = () => Math.max(0, end - Date.now());
        halted = true;
        wake.abort();
        wakeups.stop();
        unsubscribe();
        removeSource();
        // A restart in progress (connecting to a database that may not answer) is waited for, within the time.
        if (restarting) await bounded(restarting, until());
        const current = runner;
        runner = undefined;
        const outcome = await bounded(current?.stop() ?? Promise.resolve(), until());
        if (!outcome.done) {
          if (outcome.reason === "timeout") {
            log.warn("job runner: not stopped within the shutdown timeout; leaving its jobs to the liveness sweep");
            current?.kill().catch(() => {});
          } else log.warn({ err: outcome.error }, "job runner stopped with an error");
        }
        await bounded(liveness.stop(), 500);
        await bounded(pgPool.end(), 500);
      })();
      return stopping;
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** What {@link taskOf} needs. */
interface TaskDeps {
  queue: JobQueue;
  services: JobServices;
  log: Logger;
  knex: Knex;
  /** The runner's pool (graphile-worker's too): named queues' locks are held on its connections (job-queue-lock.ts). */
  pgPool: pg.Pool;
}

/**
 * The graphile-worker task running `definition`: validation, its named queue's lock (job-queue-lock.ts), context,
 * retry policy, metrics, logs.
 */
function taskOf(definition: JobDefinition, deps: TaskDeps): Task {
  const metrics = jobMetrics();
  const policy = definition.retry ?? { kind: "backoff" as const };
  return async (rawPayload, helpers) => {
    const { job } = helpers;
    const raw = (typeof rawPayload === "object" && rawPayload !== null ? rawPayload : {}) as Record<string, unknown>;
    // `_superseded`: the flag earlier releases wrote into the payload (now `job_superseded`); dropped if present.
    const { [RETRY_KEY]: retryRaw, _superseded, _cron: _ignored, ...body } = raw;
    const retry = retryRaw as RetryState | undefined;
    const attempt = (retry?.attempt ?? 1) + job.attempts - 1;
    const log = deps.log.child({ job: definition.name, jobId: job.id, attempt });
    const parsed = definition.payload.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(payload)"}: ${i.message}`);
      log.error({ issues }, `job ${definition.name} has an invalid payload: failed for good, not retried`);
      metrics.failures.inc({ task: definition.name, outcome: "permanent" });
      await failForGood(helpers);
      throw new PermanentJobError(`Invalid payload: ${issues.join("; ")}`);
    }
    const ctx: JobContext = {
      services: deps.services,
      log,
      attempt,
      deferrals: retry?.deferrals ?? 0,
      jobId: job.id,
      signal: helpers.abortSignal,
      enqueue: (name, payload, options) => deps.queue.enqueue(deps.knex, name, payload, options),
    };
    // A job of a named queue runs only while it holds the queue's lock; another run holds it: try again later.
    const lock = job.job_queue_id === null ? undefined : await tryLockQueue(deps.pgPool, job.job_queue_id);
    if (lock === null) {
      const queued = await requeue(deps, definition, helpers, body, {
        retry: { attempt, ...(retry?.lastError ? { lastError: retry.lastError } : {}) },
        runAt: new Date(Date.now() + QUEUE_BUSY_RETRY_MS),
        maxAttempts:
          policy.kind === "backoff" ? Math.max(1, job.max_attempts - job.attempts + 1) : maxAttemptsOf(policy),
      });
      log.info(
        { retryInMs: queued ? QUEUE_BUSY_RETRY_MS : null },
        `job ${definition.name}: another run of its queue holds it; ${queued ? "rescheduled" : "already done"}`,
      );
      return;
    }
    const started = performance.now();
    try {
      const work = definition.handler(parsed.data, ctx);
      // The lock is kept until the work itself settles, even when a shutdown abort stops waiting for it.
      if (lock) void work.then(lock.release, lock.release);
      await raceAbort(work, helpers.abortSignal);
      metrics.duration.observe({ task: definition.name, result: "success" }, (performance.now() - started) / 1000);
      return;
    } catch (error) {
      if (error instanceof DeferJobError) {
        // Not an attempt: the same attempt waits in the queue (durably, holding no worker) and runs again later.
        const queued = await requeue(deps, definition, helpers, body, {
          retry: {
            attempt,
            ...(retry?.lastError ? { lastError: retry.lastError } : {}),
            deferrals: (retry?.deferrals ?? 0) + 1,
          },
          runAt: new Date(Date.now() + error.delayMs),
          maxAttempts:
            policy.kind === "backoff" ? Math.max(1, job.max_attempts - job.attempts + 1) : maxAttemptsOf(policy),
        });
        log.debug(
          { retryInMs: queued ? error.delayMs : null, reason: error.message },
          `job ${definition.name} put off`,
        );
        if (queued) error.onQueued?.(queued);
        return;
      }
      metrics.duration.observe({ task: definition.name, result: "failure" }, (performance.now() - started) / 1000);
      const err = storableError(error);
      const interrupted = err instanceof ShutdownAbort;
      if (err instanceof PermanentJobError || policy.kind === "none") {
        metrics.failures.inc({ task: definition.name, outcome: "permanent" });
        log.error({ err }, `job ${definition.name} failed for good (no retry)`);
        await failForGood(helpers);
        throw err;
      }
      if (policy.kind === "waits") {
        // An interrupted attempt is run again as the same attempt, at once; a failed one after its wait.
        const wait = interrupted ? 0 : policy.waitsMs[attempt - 1];
        if (wait === undefined) {
          metrics.failures.inc({ task: definition.name, outcome: "permanent" });
          log.error({ err }, `job ${definition.name} failed its last attempt (${attempt})`);
          await failForGood(helpers).catch(() => {});
          throw err;
        }
        const next: RetryState = { attempt: interrupted ? attempt : attempt + 1, lastError: err.message };
        try {
          // Not queued when the row is gone: another run of this job, taken twice, completed it.
          await requeue(deps, definition, helpers, body, {
            retry: next,
            runAt: new Date(Date.now() + wait),
            maxAttempts: maxAttemptsOf(policy),
          });
        } catch (enqueueError) {
          // The database is away: fail this attempt in graphile-worker, which records it once it can and runs the
          // job again as the next attempt (its fallback attempt, see maxAttemptsOf), so no attempt is lost.
          const last = job.attempts >= job.max_attempts;
          metrics.failures.inc({ task: definition.name, outcome: last ? "permanent" : "retry" });
          log[last ? "error" : "warn"](
            { err, enqueueError },
            `job ${definition.name} attempt ${attempt} failed and its retry could not be queued` +
              (last ? "" : "; graphile-worker runs it again"),
          );
          throw err;
        }
        if (!interrupted) metrics.failures.inc({ task: definition.name, outcome: "retry" });
        log.warn({ err, retryInMs: wait }, `job ${definition.name} attempt ${attempt} failed; retrying`);
        return;
      }
      const last = job.attempts >= job.max_attempts;
      metrics.failures.inc({ task: definition.name, outcome: last ? "permanent" : "retry" });
      if (last) log.error({ err }, `job ${definition.name} failed its last attempt (${attempt})`);
      else log.warn({ err }, `job ${definition.name} attempt ${attempt} failed; graphile-worker retries it later`);
      throw err;
    }
  };
}

/**
 * Queues the next run of the running job (same name, payload `body` with `next.retry`, same queue, priority and job key, at
 * `next.runAt`) and records the running job in `job_superseded`, in one statement (job-queue.ts `addSuccessorJob`):
 * if the process dies before graphile-worker records the running job's completion, the liveness sweep deletes it
 * instead of running it again beside its successor (job-liveness.ts). A job whose row is already gone (another run
 * of it, taken twice, completed it) gets no successor.
 * @returns the next run's job id, or null when none was queued.
 */
function requeue(
  deps: TaskDeps,
  definition: JobDefinition,
  helpers: JobHelpers,
  body: Record<string, unknown>,
  next: { retry: RetryState; runAt: Date; maxAttempts: number },
): Promise<string | null> {
  const { job } = helpers;
  return addSuccessorJob(deps.knex, job.id, {
    name: definition.name,
    payload: { ...body, [RETRY_KEY]: next.retry },
    maxAttempts: next.maxAttempts,
    runAt: next.runAt,
    jobKey: job.key ?? undefined,
  });
}

/** `work`, or a {@link ShutdownAbort} rejection as soon as `signal` aborts (the work itself is not cancelled). */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ShutdownAbort("Interrupted by shutdown"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new ShutdownAbort("Interrupted by shutdown"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Makes the current attempt the job's last, so graphile-worker's failure handling keeps it as failed for good
 * instead of retrying (graphile-worker has no "do not retry" error of its own).
 */
async function failForGood(helpers: JobHelpers): Promise<void> {
  await helpers.query(`update ${JOB_SCHEMA}._private_jobs set max_attempts = attempts where id = $1`, [helpers.job.id]);
  helpers.job.max_attempts = helpers.job.attempts;
}
