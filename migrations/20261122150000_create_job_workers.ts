/**
 * Which job runner each graphile-worker worker belongs to, so that the jobs a dead instance held locked return to
 * the queue at once instead of after graphile-worker's 4-hour lock timeout (src/jobs/job-liveness.ts).
 */
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("job_workers", (t) => {
    t.text("worker_id").primary();
    t.text("runner_id").notNullable().index();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("job_workers");
}
