/**
 * An application's and a database's name are unique in their environment, as a project's is in its organization
 * and an environment's in its project. Everything that names resources by name relies on it: the organization
 * bundle (an export naming two applications alike was refused by its own import), its import plan, and grants
 * given by project, environment and application name.
 *
 * Names already repeated in an environment keep their first holder (oldest, then lowest id); each later one gets
 * ` (<id>)` appended, which no other name of the environment can be.
 */
import type { Knex } from "knex";

const TABLES = ["applications", "databases"] as const;

/** Renames the repeated names, then adds `<table>_environment_id_name_unique` to both tables. */
export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(
      `update ?? t set name = t.name || ' (' || t.id || ')'
         from (select id, row_number() over (partition by environment_id, name order by created_at, id) as n from ??) r
        where r.id = t.id and r.n > 1`,
      [table, table],
    );
    await knex.schema.alterTable(table, (t) => t.unique(["environment_id", "name"]));
  }
}

/** Drops the two constraints (renamed rows keep their new names). */
export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.dropUnique(["environment_id", "name"]));
}
