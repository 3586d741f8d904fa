/**
 * Event sequence numbers in commit order (docs/subscriptions.md "Order and cursors"): a cursor is a position in the
 * event log, so a transaction that committed later must never hold a lower `seq` than one already handed out.
 * Publishers insert a row with a provisional negative `seq`; the deferred constraint trigger `event_log_number`
 * runs at the commit of the inserting transaction, takes a transaction-scoped advisory lock (held until that commit
 * has ended, so numbering and commit are one step for all publishers), gives the row its `seq` from the log's
 * sequence and sends the NOTIFY with it. Rows inserted with a positive `seq` (an instance of an earlier release,
 * which notifies itself) are left alone.
 */
import type { Knex } from "knex";

/** Adds the numbering function and its deferred trigger. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create function event_log_number() returns trigger language plpgsql as $$
    declare
      next_seq bigint;
    begin
      perform pg_advisory_xact_lock(hashtext('skiff.event_log.commit_order'));
      next_seq := nextval('event_log_seq_seq'::regclass);
      update event_log set seq = next_seq where seq = new.seq;
      perform pg_notify('skiff_events',
        '{"seq":' || next_seq || ',"topic":' || to_json(new.topic)::text || ',"payload":' || new.payload || '}');
      return null;
    end
  $$`);
  await knex.raw(`create constraint trigger event_log_number after insert on event_log
    deferrable initially deferred for each row when (new.seq < 0) execute function event_log_number()`);
}

/** Drops the trigger and its function. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop trigger event_log_number on event_log");
  await knex.raw("drop function event_log_number()");
}
