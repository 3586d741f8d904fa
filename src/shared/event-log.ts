/**
 * The live-event log as resumable history (docs/subscriptions.md "Resuming after a dropped connection"): every live
 * event has a `seq` in `event_log` (src/shared/pubsub.ts), handed to clients as an opaque cursor; a subscription given
 * `after: <cursor>` first replays the topic's logged events after it, then goes live. Rows older than the retention
 * (`SKIFF_EVENT_LOG_RETENTION_SECONDS`, default 24 h) are deleted in batches; `event_log_horizon` keeps the highest
 * `seq` deleted, and a cursor below it is expired (`CURSOR_EXPIRED`): events after it may be gone. A cursor is only
 * ever the `seq` of a committed event, so one that is not (below 1, or beyond the newest event of the log) is refused
 * (`BAD_USER_INPUT`): the live stream skips the `seq`s up to its cursor, and a cursor ahead of the log would make it
 * skip events that commit later.
 */
import type { Knex } from "knex";
import { BadUserInputError, CursorExpiredError } from "./errors.ts";

/** Rows deleted per statement when pruning (short statements, no long lock on the log). */
const PRUNE_BATCH = 5000;

/** One logged event as a replay reads it. */
export interface LoggedEvent {
  seq: number;
  payload: Record<string, unknown>;
}

/** Cursors read `ev` + the sequence number in base 36, base64url-encoded: opaque to clients. */
const CURSOR_PREFIX = "ev";

/** The cursor of event `seq` (opaque: clients only hand it back as `after`). */
export function cursorOf(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq.toString(36)}`).toString("base64url");
}

/** The error for an `after` that is not the cursor of an event Skiff gave. */
function notACursor(): BadUserInputError {
  return new BadUserInputError("Invalid input: after: not a cursor of this server", {
    fieldErrors: { after: ["Must be the cursor of an event received before"] },
  });
}

/**
 * The sequence number of `cursor` (at least 1: the log's sequence starts there). Whether an event has that number
 * is for {@link loggedEventsAfter} to say, in the statement that replays.
 * @throws BadUserInputError on `after` when it is not a cursor Skiff gave.
 */
export function seqOfCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,32}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const digits = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  const seq = /^[0-9a-z]{1,12}$/.test(digits) ? Number.parseInt(digits, 36) : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) throw notACursor();
  return seq;
}

/**
 * The events of `topic` logged after `afterSeq`, oldest first; with `route`, only those whose payload has
 * `route.field` equal to `route.value` (filtered in the statement). The same statement, and so the same snapshot,
 * reads the newest `seq` of the whole log in PostgreSQL (the highest row, or the horizon once every row is pruned):
 * the events of every instance count, and a cursor that is not beyond it is not beyond any event that commits later
 * (`seq` order is commit order and each snapshot of the log is a prefix of it), so the live events the stream then
 * skips as not after the cursor are events the client already had.
 * @throws BadUserInputError when `afterSeq` is beyond the newest event of the log (not a cursor Skiff gave);
 *   CursorExpiredError when events after `afterSeq` may have been pruned, or (with `retentionMs`) when the
 *   cursor's own event is older than the retention, pruned yet or not: the answer depends on the cursor's age, not
 *   on when the prune last ran.
 */
export async function loggedEventsAfter(
  knex: Knex,
  topic: string,
  afterSeq: number,
  route?: { field: string; value: string },
  retentionMs?: number,
): Promise<LoggedEvent[]> {
  const { rows } = (await knex.raw(
    `select h.seq as horizon, greatest(h.seq, (select max(seq) from event_log)) as newest,
            coalesce((select c.created_at < now() - (?::float8 * interval '1 millisecond') from event_log c where c.seq = ?), false)
              as stale,
            e.seq, e.payload
       from event_log_horizon h
       left join event_log e on e.topic = ? and e.seq > ? ${route ? "and e.payload::jsonb ->> ? = ?" : ""}
      order by e.seq`,
    [retentionMs ?? null, afterSeq, topic, afterSeq, ...(route ? [route.field, route.value] : [])],
  )) as {
    rows: Array<{ horizon: string; newest: string; stale: boolean; seq: string | null; payload: string | null }>;
  };
  const horizon = Number(rows[0]?.horizon ?? 0);
  if (afterSeq > Number(rows[0]?.newest ?? 0)) throw notACursor();
  if (afterSeq < horizon || rows[0]?.stale) {
    throw new CursorExpiredError(
      "This cursor is older than the event log's retention: read the current state, then subscribe without after",
    );
  }
  return rows
    .filter((r) => r.seq !== null)
    .map((r) => ({ seq: Number(r.seq), payload: JSON.parse(r.payload!) as Record<string, unknown> }));
}

/**
 * Deletes the events older than `retentionMs`, {@link PRUNE_BATCH} rows per statement, raising the horizon to the
 * highest `seq` deleted in the same statement.
 * @returns how many rows were deleted.
 */
export async function pruneEventLog(knex: Knex, retentionMs: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rows } = (await knex.raw(
      `with gone as (
         delete from event_log where seq in (
           select seq from event_log where created_at < now() - (? * interval '1 millisecond') order by seq limit ?
         ) returning seq
       ), raised as (
         update event_log_horizon set seq = greatest(seq, (select max(seq) from gone)) where exists (select 1 from gone)
       )
       select count(*)::int as n from gone`,
      [retentionMs, PRUNE_BATCH],
    )) as { rows: Array<{ n: number }> };
    const n = rows[0]?.n ?? 0;
    deleted += n;
    if (n < PRUNE_BATCH) return deleted;
  }
}
