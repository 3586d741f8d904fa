/**
 * Less work per webhook delivery attempt (docs/webhooks.md "Benchmark"):
 * - `webhook_deliveries` pages keep 30 % free (`fillfactor = 70`): an attempt's update of its delivery (status,
 *   attempts, updated_at: no indexed column) then fits on the row's own page, a HOT update that writes no index entry,
 *   instead of a new row version with an entry in each of the table's four indexes.
 * - the foreign key `webhook_delivery_attempts.endpoint_id` → `webhook_endpoints` goes: every log entry belongs to
 *   a delivery (foreign key, on delete cascade) of that same endpoint (foreign key, on delete cascade), so deleting
 *   an endpoint still deletes its log; the key's check took a share lock on the endpoint's row at every attempt,
 *   which concurrent attempts of one endpoint turned into a multixact.
 * - the index `webhook_deliveries (endpoint_id)` goes: `(endpoint_id, created_at)` serves every read by endpoint.
 */
import type { Knex } from "knex";

/** Applies the three changes above. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_deliveries set (fillfactor = 70)");
  await knex.schema.alterTable("webhook_delivery_attempts", (t) => t.dropForeign(["endpoint_id"]));
  await knex.schema.alterTable("webhook_deliveries", (t) => t.dropIndex(["endpoint_id"]));
}

/** Restores the index, the foreign key and the default fill factor. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_deliveries", (t) => t.index(["endpoint_id"]));
  await knex.schema.alterTable("webhook_delivery_attempts", (t) =>
    t.foreign("endpoint_id").references("webhook_endpoints.id").onDelete("CASCADE"),
  );
  await knex.raw("alter table webhook_deliveries reset (fillfactor)");
}
