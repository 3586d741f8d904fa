/**
 * Durable site imports: each record keeps the progress of its run — `steps`, a JSON object
 * mapping every step (`project_creation` … `deployment`) to `pending`, `done`, `failed` or `skipped` — and the
 * generated application name (`app_name`), so a run interrupted by a crash resumes with the same names and skips
 * the steps it already committed. Existing records get their progress derived from their ids and status. A
 * partial index on pending records serves the sweep of interrupted runs.
 */
import type { Knex } from "knex";

/** Adds `steps` and `app_name` to `site_imports`, backfilled from the existing columns. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("site_imports", (t) => {
    t.jsonb("steps").notNullable().defaultTo("{}");
    t.text("app_name");
  });
  const status = (step: string, done: string, optional: string | null) =>
    `'${step}', case when ${done} then 'done' when error_step = '${step}' then 'failed'` +
    (optional ? ` when ${optional} then 'skipped'` : "") +
    " else 'pending' end";
  await knex.raw(`update site_imports set steps = jsonb_build_object(
    ${status("project_creation", "project_id is not null or status = 'success'", null)},
    ${status("database_creation", "database_id is not null", "status = 'success' or project_id is not null and error_step <> 'database_creation'")},
    ${status("application_creation", "application_id is not null or status = 'success'", null)},
    ${status("domain_creation", "domain_id is not null", "status = 'success' or application_id is not null and error_step <> 'domain_creation'")},
    ${status("deployment", "status = 'success'", null)})`);
  // The minute sweep of interrupted runs (imports.expire-interrupted) reads only pending records.
  await knex.raw("create index site_imports_pending on site_imports (id) where status = 'pending'");
}

/** Drops the index and the columns. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists site_imports_pending");
  await knex.schema.alterTable("site_imports", (t) => {
    t.dropColumn("steps");
    t.dropColumn("app_name");
  });
}
