/**
 * Recovery after downtime (docs/webhooks.md "Recovering after downtime"):
 * - `webhook_recoveries`: one row per recovery of an endpoint's undelivered deliveries in a time window (who asked,
 *   the window, how many deliveries were queued again). A recovery runs while one of its deliveries is pending.
 * - `webhook_deliveries.recovery_id`: the recovery that queued the delivery's current series (null otherwise).
 * - an index on `webhook_deliveries (endpoint_id, created_at)`: a recovery reads one endpoint's window.
 */
import type { Knex } from "knex";

/** Adds the table, the column and the index. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhook_recoveries", (t) => {
    t.text("id").primary();
    t.text("endpoint_id").notNullable().references("webhook_endpoints.id").onDelete("CASCADE").index();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.timestamp("since", { useTz: true }).notNullable();
    t.timestamp("until", { useTz: true }).notNullable();
    /** False when the caller gave no `until` (the window ended at the call): the idempotence key then omits it. */
    t.boolean("until_given").notNullable();
    t.integer("queued").notNullable();
    t.integer("rate_per_second").notNullable();
    t.text("created_by_user_id").references("users.id").onDelete("SET NULL");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable("webhook_deliveries", (t) => {
    t.text("recovery_id").references("webhook_recoveries.id").onDelete("SET NULL");
    t.index(["endpoint_id", "created_at"]);
    t.index(["recovery_id"]);
  });
}

/** Removes them. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_deliveries", (t) => {
    t.dropIndex(["recovery_id"]);
    t.dropIndex(["endpoint_id", "created_at"]);
    t.dropColumn("recovery_id");
  });
  await knex.schema.dropTableIfExists("webhook_recoveries");
}
