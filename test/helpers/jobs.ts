/**
 * Waiting for background jobs in tests: mails and other side effects of a request now happen in a job, shortly
 * after the response.
 */
import type { Knex } from "knex";
import { BACKGROUND_QUEUE } from "../../src/jobs/job-definition.ts";

/** What {@link drainJobs} waits for besides the jobs requests enqueue. */
export interface DrainOptions {
  /**
   * Also wait for periodic background work (the serial queue of recurring jobs such as pruning and health probes).
   * Off by default: a recurring job whose tick falls inside a test is not the test's side effect, and it may wait
   * behind the other background jobs for longer than the test waits.
   */
  background?: boolean;
}

/**
 * Resolves once the queue of `knex`'s database holds no job with attempts left (waiting) and none locked (running,
 * or held in a worker's local queue), i.e. every job enqueued so far has finished or failed for good.
 * @throws Error after `timeoutMs` (default 10 s), listing what is still queued.
 */
export async function drainJobs(knex: Knex, timeoutMs = 10_000, options: DrainOptions = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const scope = options.background ? "" : "and queue_name is distinct from ?";
  for (;;) {
    const { rows } = await knex.raw(
      `select task_identifier as task, attempts, last_error as error from graphile_worker.jobs
        where (attempts < max_attempts or locked_at is not null) ${scope}`,
      options.background ? [] : [BACKGROUND_QUEUE],
    );
    if (rows.length === 0) return;
    if (Date.now() > deadline) throw new Error(`Jobs still queued after ${timeoutMs} ms: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
