/**
 * The live-event log (src/shared/pubsub.ts): every published event gets a row with an increasing
 * sequence number beside its NOTIFY, so an instance whose LISTEN connection was down replays what it missed.
 * Rows older than a few minutes are pruned by every instance. Unlogged: it is a short replay buffer, not history
 * (a crash of PostgreSQL empties it, and its subscribers reconnect anyway).
 */
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create unlogged table event_log (
    seq bigserial primary key,
    topic text not null,
    payload text not null,
    created_at timestamptz not null default now()
  )`);
  await knex.raw("create index event_log_created_at on event_log (created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("event_log");
}
