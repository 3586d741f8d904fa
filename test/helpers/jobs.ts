/**
 * Waiting for background jobs in tests: mails and other side effects of a request now happen in a job, shortly
 * after the response.
 */
import type { Knex } from "knex";

/**
 * Resolves once the queue of `knex`'s database holds no job with attempts left (waiting) and none locked (running,
 * or held in a worker's local queue), i.e. every job enqueued so far has finished or failed for good.
 * @throws Error after `timeoutMs` (default 10 s), listing what is still queued.
 */
export async function drainJobs(knex: Knex, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await knex.raw(
      "select task_identifier as task, attempts, last_error as error from graphile_worker.jobs where attempts < max_attempts or locked_at is not null",
    );
    if (rows.length === 0) return;
    if (Date.now() > deadline) throw new Error(`Jobs still queued after ${timeoutMs} ms: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
