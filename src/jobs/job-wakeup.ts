/**
 * Wakes a worker pool when a job scheduled for later becomes due, so a `runAt` is honoured within milliseconds
 * instead of graphile-worker's poll interval. Sources of due times: the `jobs.scheduled` event sent by `enqueue`
 * (from any instance, at commit), and the earliest future `run_at` in the queue, read at start-up, after
 * each wake-up and whenever the LISTEN connection is (re)established. One timer at a time: the earliest due time.
 */
import type { Knex } from "knex";
import { JOB_SCHEMA } from "./job-queue.ts";

/** Longest timer we set; later jobs are re-read from the queue when it fires. */
const MAX_TIMER_MS = 60_000;

/** The scheduler of one runner. */
export interface Wakeups {
  /** A job is due at `epochMs` (from a `jobs.scheduled` event). */
  dueAt(epochMs: number): void;
  /** Reads the earliest future `run_at` from the queue and schedules it. */
  refresh(): Promise<void>;
  stop(): void;
}

/** Schedules `nudge()` at the due times of `knex`'s queue (see the file comment). */
export function createWakeups(knex: Knex, nudge: () => void, onError: (err: unknown) => void): Wakeups {
  let timer: NodeJS.Timeout | undefined;
  let next = Number.POSITIVE_INFINITY;
  let stopped = false;
  const self: Wakeups = {
    dueAt(epochMs) {
      if (stopped || !Number.isFinite(epochMs)) return;
      const delay = epochMs - Date.now();
      if (delay <= 0) {
        nudge();
        return;
      }
      if (epochMs >= next) return;
      clearTimeout(timer);
      next = epochMs;
      // +2 ms: the database compares run_at with its own now(); never ask a hair early.
      timer = setTimeout(fire, Math.min(delay + 2, MAX_TIMER_MS));
      timer.unref();
    },
    async refresh() {
      try {
        const { rows } = await knex.raw(
          `select (extract(epoch from min(run_at)) * 1000)::float8 as at from ${JOB_SCHEMA}.jobs
            where run_at > now() and locked_at is null and attempts < max_attempts`,
        );
        const at = (rows as Array<{ at: number | null }>)[0]?.at;
        if (at != null) self.dueAt(at);
      } catch (err) {
        if (!stopped) onError(err);
      }
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
  /**
   * The timer's callback. A timer can fire before its time by the wall clock: Node counts a delay from the event
   * loop's cached time, which lags the clock after a busy turn. Then the job is not due yet, and the queue's next
   * `run_at` read now could already miss it (`run_at > now()` once the database's clock has passed it) — so the
   * timer is set again for the rest instead (a job was started hundreds of ms late, at the next job's wake-up).
   */
  function fire() {
    const due = next;
    next = Number.POSITIVE_INFINITY;
    timer = undefined;
    if (stopped) return;
    if (Date.now() < due) {
      self.dueAt(due);
      return;
    }
    nudge();
    void self.refresh();
  }
  return self;
}
