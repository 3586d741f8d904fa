/**
 * Jobs whose next run is already queued (a `waits` retry, or a run put off because its named queue was busy): the
 * row is written in the transaction that queues the successor, so that the liveness sweep deletes such a job, if its
 * holder died before graphile-worker recorded its completion, instead of running it again beside its successor
 * (src/jobs/job-liveness.ts). Replaces a flag written into graphile-worker's private `_private_jobs` payload
 * (Skiff writes graphile-worker's private tables only where no public function can act).
 */
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("job_superseded", (t) => {
    t.bigInteger("job_id").primary();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("job_superseded");
}
