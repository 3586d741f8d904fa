/**
 * `webhook_deliveries` becomes its own durable queue (docs/webhooks.md "Delivery"): a pending delivery's next attempt
 * is due at `next_attempt_at`, and an instance running it holds a lease (`locked_until`, `locked_by`) that another
 * instance may take over once it has expired (the attempt of an instance that died is made again).
 * - `next_attempt_at`: when the next attempt is due (null: no attempt queued in this table — a delivery that ended,
 *   or one of the previous release, whose attempts are `webhooks.deliver` jobs: such a job hands its delivery over
 *   to this queue when it runs, so both releases can run side by side during a rolling update);
 * - `locked_until`, `locked_by`: the lease of the instance running the attempt (not indexed: taking and ending a
 *   lease rewrites the row on its own page, a HOT update);
 * - `force`: the `test` ping, attempted even while its endpoint is inactive;
 * - a partial index on `next_attempt_at` of the pending deliveries that have one: the instances' claims read it;
 * - the index on `recovery_id` keeps only the deliveries a recovery queued (most have none): a row version that
 *   cannot stay on its page (not HOT) writes no entry there;
 * - pages keep half their room free (`fillfactor = 50`, from 70): a delivery's row is rewritten twice per attempt
 *   (lease taken, outcome), and each rewrite that fits on the row's page writes no index entry.
 */
import type { Knex } from "knex";

/** Adds the columns and the index above. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("webhook_deliveries", (t) => {
    t.timestamp("next_attempt_at", { useTz: true });
    t.timestamp("locked_until", { useTz: true });
    t.text("locked_by");
    t.boolean("force").notNullable().defaultTo(false);
  });
  await knex.raw(
    `create index webhook_deliveries_due_index on webhook_deliveries (next_attempt_at)
     where status = 'pending' and next_attempt_at is not null`,
  );
  await knex.raw(
    "create index webhook_deliveries_recovery_id_partial_index on webhook_deliveries (recovery_id) where recovery_id is not null",
  );
  await knex.schema.alterTable("webhook_deliveries", (t) => t.dropIndex(["recovery_id"]));
  await knex.raw("alter table webhook_deliveries set (fillfactor = 50)");
}

/** Removes them (pending deliveries of the queue are then left to redelivery or recovery). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table webhook_deliveries set (fillfactor = 70)");
  await knex.schema.alterTable("webhook_deliveries", (t) => t.index(["recovery_id"]));
  await knex.raw("drop index if exists webhook_deliveries_recovery_id_partial_index");
  await knex.raw("drop index if exists webhook_deliveries_due_index");
  await knex.schema.alterTable("webhook_deliveries", (t) => {
    t.dropColumn("force");
    t.dropColumn("locked_by");
    t.dropColumn("locked_until");
    t.dropColumn("next_attempt_at");
  });
}
