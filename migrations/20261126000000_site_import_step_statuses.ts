/**
 * A CHECK constraint on `site_imports.steps`: every value of the progress object is one of
 * the step statuses `pending`, `done`, `failed`, `skipped` (a string). The compiled reads then write a step's status
 * as it is, quoted, instead of through `to_json` (a type lookup per value; five per import record), as they do for
 * the other enum columns under CHECK constraints (src/modules/sql-reads.ts `checkedEnumJson`). Skiff writes only
 * these statuses (site-import.run.ts); a row holding anything else would be refused by this migration.
 */
import type { Knex } from "knex";

/** The constraint's name. */
const NAME = "site_imports_step_statuses";

/** Adds the constraint (validating every existing row); `\\?` is knex's escape of the jsonpath filter's `?`. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table site_imports add constraint ${NAME} check (not jsonb_path_exists(steps,
    '$.* \\? (@.type() != "string" || !(@ == "pending" || @ == "done" || @ == "failed" || @ == "skipped"))'))`);
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table site_imports drop constraint if exists ${NAME}`);
}
