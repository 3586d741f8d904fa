/**
 * `applications.needs_deployment`: true once an application's settings, variables or domains changed after its
 * last deployment was queued (GraphQL `Application.needsDeployment`); queueing a deployment clears it. Existing
 * applications start false: their running version is what they were imported with.
 */
import type { Knex } from "knex";

/** Adds the column. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("applications", (t) => {
    t.boolean("needs_deployment").notNullable().defaultTo(false);
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("applications", (t) => {
    t.dropColumn("needs_deployment");
  });
}
