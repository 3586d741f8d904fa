/**
 * CHECK constraints on the status columns Skiff alone writes: `deployments.status` is one
 * of `queued`, `running`, `done`, `error`, `cancelled` (src/modules/deployments/deployment.model.ts) and
 * `applications.application_status` one of `idle`, `deploying`, `running`, `error` (deployment.run.ts, health.ts;
 * null: not deployed yet). The compiled reads then write them quoted as they are instead of through `to_json` (a
 * type lookup per value: three deployments per application in a project tree), as they do for the other columns
 * under CHECK constraints (src/modules/sql-reads.ts `checkedEnum`; test/db/enum-constraints.test.ts). A row holding
 * anything else would be refused by this migration.
 */
import type { Knex } from "knex";

/** [table, column, constraint, allowed values]. */
const CHECKS: Array<[string, string, string, string[]]> = [
  ["deployments", "status", "deployments_status_check", ["queued", "running", "done", "error", "cancelled"]],
  [
    "applications",
    "application_status",
    "applications_application_status_check",
    ["idle", "deploying", "running", "error"],
  ],
];

/** Adds the constraints (validating every existing row). */
export async function up(knex: Knex): Promise<void> {
  for (const [table, column, name, values] of CHECKS) {
    // DDL takes no parameters: the values (constants above, plain names) are written as literals.
    const list = values.map((v) => `'${v}'`).join(", ");
    await knex.raw(`alter table ?? add constraint ?? check (?? in (${list}))`, [table, name, column]);
  }
}

/** Drops them. */
export async function down(knex: Knex): Promise<void> {
  for (const [table, , name] of CHECKS) await knex.raw("alter table ?? drop constraint if exists ??", [table, name]);
}
