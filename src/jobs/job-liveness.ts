/**
 * Jobs held by a dead instance go back to the queue at once. graphile-worker locks a job to a worker (or worker pool) id and only
 * frees the lock of a worker that vanished after 4 hours; a Skiff killed with SIGKILL (or a lost machine) would
 * leave its running jobs stuck that long. So each runner keeps one dedicated connection for its whole life, named
 * `skiff-jobs:<runnerId>` (`application_name`), and records its workers in `job_workers`. Every runner sweeps at
 * start and every {@link SWEEP_INTERVAL_MS}: a worker whose runner has no such connection in `pg_stat_activity` is
 * dead, and `graphile_worker.force_unlock_workers` returns its jobs to the queue, each with its interrupted attempt
 * given back (they run again: delivery is at least once), through graphile-worker's public functions only (one
 * transaction: see {@link unlockWorkers}). While its own connection is down (it reconnects, every
 * second until it is back), a live runner may be taken for dead: its jobs may then run twice, which at-least-once
 * handlers tolerate. A runner whose worker pool died while the runner lives on (job-runner.ts restarts it) keeps
 * its id and connection: the dead pool's lock holders are still recorded under a live runner, so the sweep would
 * not free them; the runner frees them itself with {@link RunnerLiveness.release} before the new pool starts.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "pino";
import { JOB_SCHEMA } from "./job-queue.ts";

/** How often a runner looks for dead runners' workers, ms. */
export const SWEEP_INTERVAL_MS = 30_000;

const APP_PREFIX = "skiff-jobs:";

/** One runner's liveness: its connection, its workers' registration, the sweep. */
export interface RunnerLiveness {
  /** The runner's id (part of its connection's `application_name`). */
  runnerId: string;
  /** Records a lock holder of this runner: a worker's or the worker pool's id (what `locked_by` may hold). */
  registerWorker(workerId: string): void;
  /** Unlocks the jobs of dead runners' workers now. @returns how many workers were found dead. */
  sweep(): Promise<number>;
  /**
   * Returns the jobs locked by `workerIds` (lock holders of this runner's dead worker pool) to the queue, their
   * interrupted attempt given back, and forgets those holders.
   * @throws while the runner's connection is down or the database does not answer (call again later).
   */
  release(workerIds: string[]): Promise<void>;
  /** Whether the runner's named connection is up (without it other runners take this one for dead). */
  readonly connected: boolean;
  /** Forgets this runner's workers and closes the connection (after the runner stopped). */
  stop(): Promise<void>;
}

/**
 * Opens the runner's named connection (resolves once it is up), sweeps once, and repeats the sweep every
 * `intervalMs`. @throws when the first connection fails.
 */
export async function startRunnerLiveness(
  databaseUrl: string,
  log: Logger,
  intervalMs: number = SWEEP_INTERVAL_MS,
): Promise<RunnerLiveness> {
  const runnerId = randomUUID();
  let stopped = false;
  let client: pg.Client | undefined;
  const pending = new Set<string>();
  // One query at a time on the runner's connection (pg no longer queues concurrent queries on a client).
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };

  let retry: NodeJS.Timeout | undefined;
  /** Connects again in a second (once, however many times the old connection reported its end). */
  function reconnectLater(): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect().catch(() => reconnectLater());
    }, 1000);
    retry.unref();
  }

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: `${APP_PREFIX}${runnerId}` });
    c.on("error", (err) => log.warn({ err }, "job runner liveness connection failed; reconnecting"));
    c.on("end", () => {
      if (client === c) client = undefined;
      reconnectLater();
    });
    try {
      await c.connect();
    } catch (err) {
      await c.end().catch(() => {});
      throw err;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    for (const id of pending) void record(id);
  }

  async function record(workerId: string): Promise<void> {
    pending.add(workerId);
    if (!client) return;
    try {
      const c = client;
      await serial(() =>
        c.query("insert into job_workers (worker_id, runner_id) values ($1, $2) on conflict do nothing", [
          workerId,
          runnerId,
        ]),
      );
      pending.delete(workerId);
    } catch (err) {
      log.warn({ err, workerId }, "could not record a job worker");
    }
  }

  function sweep(): Promise<number> {
    return serial(sweepNow);
  }

  async function sweepNow(): Promise<number> {
    const c = client;
    if (!c) return 0;
    await pruneSuperseded(c);
    const { rows } = await c.query<{ workerId: string }>(
      `select w.worker_id as "workerId" from job_workers w
        where not exists (select 1 from pg_stat_activity a where a.application_name = $1 || w.runner_id)`,
      [APP_PREFIX],
    );
    if (!rows.length) return 0;
    const ids = rows.map((r) => r.workerId);
    await unlockWorkers(c, ids);
    log.warn({ workers: ids.length }, "returned the jobs of stopped job runners to the queue");
    return ids.length;
  }

  function release(workerIds: string[]): Promise<void> {
    for (const id of workerIds) pending.delete(id);
    return serial(async () => {
      const c = client;
      if (!c) throw new Error("The job runner's liveness connection is down");
      if (workerIds.length) await unlockWorkers(c, workerIds);
    });
  }

  await connect();
  await sweep().catch((err) => log.warn({ err }, "job runner sweep failed"));
  const timer = setInterval(
    () => void sweep().catch((err) => log.warn({ err }, "job runner sweep failed")),
    intervalMs,
  );
  timer.unref();
  return {
    runnerId,
    registerWorker: (workerId) => void record(workerId),
    sweep,
    release,
    get connected() {
      return client !== undefined;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(retry);
      const c = client;
      client = undefined;
      if (!c) return;
      await serial(() => c.query("delete from job_workers where runner_id = $1", [runnerId])).catch(() => {});
      await c.end().catch(() => {});
    },
  };
}

/**
 * Returns the jobs locked by `ids` to the queue and forgets those holders, in one transaction of graphile-worker's
 * public functions: `force_unlock_workers` first (its row locks keep other instances, which fetch with SKIP LOCKED,
 * off these jobs until the commit), then, on the now unlocked jobs, `complete_jobs` for those whose next run is
 * already queued (`job_superseded`: their work is done) and `reschedule_jobs` giving the others back their
 * interrupted attempt (graphile-worker counted it when it locked the job, and a job at its last attempt would
 * otherwise never run again).
 */
async function unlockWorkers(c: pg.Client, ids: string[]): Promise<void> {
  await c.query("begin");
  try {
    const { rows } = await c.query<{ id: string; superseded: boolean }>(
      `select j.id::text, exists (select 1 from job_superseded s where s.job_id = j.id) as superseded
         from ${JOB_SCHEMA}.jobs j where j.locked_by = any($1::text[])`,
      [ids],
    );
    await c.query(`select ${JOB_SCHEMA}.force_unlock_workers($1::text[])`, [ids]);
    const done = rows.filter((r) => r.superseded).map((r) => r.id);
    const interrupted = rows.filter((r) => !r.superseded).map((r) => r.id);
    if (done.length) {
      await c.query(`select count(*) from ${JOB_SCHEMA}.complete_jobs($1::bigint[])`, [done]);
      await c.query("delete from job_superseded where job_id = any($1::bigint[])", [done]);
    }
    if (interrupted.length) {
      await c.query(
        `select count(r.*) from ${JOB_SCHEMA}.jobs j,
           lateral ${JOB_SCHEMA}.reschedule_jobs(array[j.id], max_attempts => greatest(j.max_attempts, j.attempts + 1)) r
          where j.id = any($1::bigint[])`,
        [interrupted],
      );
    }
    await c.query("delete from job_workers where worker_id = any($1::text[])", [ids]);
    await c.query("commit");
  } catch (err) {
    await c.query("rollback").catch(() => {});
    throw err;
  }
}

/** Forgets superseded jobs that no longer exist (completed as usual); run with each sweep. */
async function pruneSuperseded(c: pg.Client): Promise<void> {
  await c.query(
    `delete from job_superseded s where s.created_at < now() - interval '1 minute'
       and not exists (select 1 from ${JOB_SCHEMA}.jobs j where j.id = s.job_id)`,
  );
}
