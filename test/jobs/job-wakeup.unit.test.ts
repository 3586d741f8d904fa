/**
 * The wake-up scheduler of scheduled jobs (src/jobs/job-wakeup.ts): a due time nudges the worker pool at that
 * time, the earliest due time wins, and a timer that fires before its time by the wall clock (Node counts delays
 * from the event loop's cached time) waits for the rest instead of dropping the wake-up. Node's timers and clock
 * are Vitest's fake ones here, so that the clock can lag the timers exactly; the queue's read of the next `run_at`
 * answers that no job is in the future — what PostgreSQL answers once its clock has passed the job's time.
 */
import type { Knex } from "knex";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createWakeups } from "../../src/jobs/job-wakeup.ts";

/**
 * A scheduler over a queue whose next future `run_at` is none: its `nudges` (the clock's time of each) and the
 * count of its queue `reads`.
 */
function recordingWakeups() {
  const reads = { count: 0 };
  const nudges: number[] = [];
  const knex = {
    raw: async () => {
      reads.count++;
      return { rows: [{ at: null }] };
    },
  } as unknown as Knex;
  const wakeups = createWakeups(
    knex,
    () => nudges.push(Date.now()),
    (err) => {
      throw err;
    },
  );
  return { wakeups, nudges, reads };
}

describe("job wake-ups", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-11-26T12:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("nudges once at the earliest due time, not before", async () => {
    const { wakeups, nudges } = recordingWakeups();
    const start = Date.now();
    wakeups.dueAt(start + 700);
    wakeups.dueAt(start + 300);
    await vi.advanceTimersByTimeAsync(299);
    expect(nudges).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    expect(nudges.map((t) => t - start)).toEqual([302]);
    wakeups.stop();
  });

  it("sets the timer again when it fires before its time by the clock, and nudges when the time comes", async () => {
    const { wakeups, nudges, reads } = recordingWakeups();
    const start = Date.now();
    const due = start + 300;
    wakeups.dueAt(due);
    // The clock falls 50 ms behind the timers: the timer fires when the clock reads due − 48.
    vi.setSystemTime(start - 50);
    await vi.advanceTimersByTimeAsync(302);
    expect(Date.now()).toBe(due - 48);
    expect(nudges).toEqual([]);
    await vi.advanceTimersByTimeAsync(60);
    expect(nudges).toHaveLength(1);
    expect(nudges[0]!).toBeGreaterThanOrEqual(due);
    expect(nudges[0]! - due).toBeLessThanOrEqual(2);
    // The queue is read after the nudge only (for jobs further ahead), not at the early firing.
    expect(reads.count).toBe(1);
    wakeups.stop();
  });

  it("does nothing once stopped", async () => {
    const { wakeups, nudges } = recordingWakeups();
    wakeups.dueAt(Date.now() + 100);
    wakeups.stop();
    await vi.advanceTimersByTimeAsync(200);
    expect(nudges).toEqual([]);
  });
});
