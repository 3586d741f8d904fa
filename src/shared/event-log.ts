/**
 * The live-event log as resumable history (docs/subscriptions.md "Resuming after a dropped connection"): every live
 * event has a `seq` in `event_log` (src/shared/pubsub.ts), handed to clients as an opaque cursor; a subscription given
 * `after: <cursor>` first replays the topic's logged events after it, then goes live. Rows older than the retention
 * (`SKIFF_EVENT_LOG_RETENTION_SECONDS`, default 24 h) are deleted in batches; `event_log_horizon` keeps the highest
 * `seq` deleted, and a cursor below it is expired (`CURSOR_EXPIRED`): events after it may be gone.
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

/**
 * The sequence number of `cursor`.
 * @throws BadUserInputError on `after` when it is not a cursor Skiff gave.
 */
export function seqOfCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,32}$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const digits = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  const seq = /^[0-9a-z]{1,12}$/.test(digits) ? Number.parseInt(digits, 36) : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw new BadUserInputError("Invalid input: after: not a cursor of this server", {
      fieldErrors: { after: ["Must be the cursor of an event received before"] },
    });
  }
  return seq;
}

/**
 * The events of `topic` logged after `afterSeq`, oldest first; with `route`, only those whose payload has
 * `route.field` equal to `route.value` (filtered in the statement).
 * @throws CursorExpiredError when events after `afterSeq` may have been pruned.
 */
export async function loggedEventsAfter(
  knex: Knex,
  topic: string,
  afterSeq: number,
  route?: { field: string; value: string },
): Promise<LoggedEvent[]> {
  const { rows } = (await knex.raw(
    `select h.seq as horizon, e.seq, e.payload
       from event_log_horizon h
       left join event_log e on e.topic = ? and e.seq > ? ${route ? "and e.payload::jsonb ->> ? = ?" : ""}
      order by e.seq`,
    [topic, afterSeq, ...(route ? [route.field, route.value] : [])],
  )) as { rows: Array<{ horizon: string; seq: string | null; payload: string | null }> };
  const horizon = Number(rows[0]?.horizon ?? 0);
  if (afterSeq < horizon) {
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
