/**
 * The live-event log becomes resumable history (docs/subscriptions.md "Resuming after a dropped connection"):
 * - `event_log` is made a logged table: clients hold cursors (its `seq`) across restarts of Skiff and PostgreSQL, so
 *   its rows and its sequence must survive a crash (an unlogged table and its sequence are reset by one);
 * - an index on `(topic, seq)`: a resuming subscription reads one topic after its cursor;
 * - `event_log_horizon`: one row, the highest `seq` pruned so far; a cursor below it is expired (events after it may
 *   be gone). It starts just below the oldest row kept.
 */
import type { Knex } from "knex";

/** Makes the log logged, adds the index and the horizon. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table event_log set logged");
  await knex.raw("create index event_log_topic_seq on event_log (topic, seq)");
  await knex.raw(
    "create table event_log_horizon (id integer primary key default 1 check (id = 1), seq bigint not null)",
  );
  await knex.raw("insert into event_log_horizon (id, seq) select 1, coalesce(min(seq) - 1, 0) from event_log");
}

/** Back to an unlogged buffer. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table event_log_horizon");
  await knex.raw("drop index event_log_topic_seq");
  await knex.raw("alter table event_log set unlogged");
}
