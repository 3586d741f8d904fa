/**
 * One job of a named queue at a time, enforced by Skiff itself: graphile-worker is meant to run the jobs
 * of one `queue_name` one at a time, but 0.17.3's local queue could hand two jobs of one queue to two workers
 * (graphile/worker#621, fixed in 0.18.0 by #622), and a live runner taken for dead by the liveness sweep (job-liveness.ts) gets its running
 * job run again elsewhere. So before a job of a named queue runs, the runner takes a PostgreSQL session advisory
 * lock keyed by the job's queue (`pg_try_advisory_lock(QUEUE_LOCK_CLASS, job_queue_id)`) on its own connection of
 * the runner's pool, held until the handler's work has settled (even past a shutdown abort). A lock already held
 * elsewhere means another run of the queue is under way: the job is rescheduled (job-runner.ts), not failed.
 * The lock lives with its connection: a SIGKILLed instance's backend ends and PostgreSQL frees it at once.
 */
import type pg from "pg";

/**
 * First key of the two-key advisory lock of a named queue (the second is graphile-worker's `job_queue_id`). The
 * two-key space is separate from the one-key space the migrations' and first-run locks use.
 */
export const QUEUE_LOCK_CLASS = 0x736b6a71;

/** How long a job whose queue is busy waits before it tries again, ms. */
export const QUEUE_BUSY_RETRY_MS = 2000;

/** A held queue lock. */
export interface QueueLock {
  /** Unlocks and returns the connection; on any failure the connection is closed instead (which frees the lock). Never rejects. */
  release(): Promise<void>;
}

/**
 * Tries to take the lock of graphile-worker queue `queueId` on a connection of `pool`, kept out of the pool until
 * {@link QueueLock.release}.
 * @returns the lock, or null when another connection holds it.
 * @throws when no connection can be had or the query fails (the connection is closed then).
 */
export async function tryLockQueue(pool: pg.Pool, queueId: number): Promise<QueueLock | null> {
  const client = await pool.connect();
  let locked: boolean;
  try {
    const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1, $2) as locked", [
      QUEUE_LOCK_CLASS,
      queueId,
    ]);
    locked = rows[0]?.locked === true;
  } catch (err) {
    client.release(err instanceof Error ? err : true);
    throw err;
  }
  if (!locked) {
    client.release();
    return null;
  }
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= client.query("select pg_advisory_unlock($1, $2)", [QUEUE_LOCK_CLASS, queueId]).then(
        () => client.release(),
        (err: unknown) => client.release(err instanceof Error ? err : true),
      );
      return released;
    },
  };
}
