/**
 * SQL for timestamps read by compiled reads (issues 15, 21): rendered as text in PostgreSQL, truncated to whole
 * milliseconds as a JavaScript `Date` holds them (PostgreSQL keeps microseconds).
 */

/** The `to_char` format of the `DateTime` scalar's text (ISO 8601, UTC, milliseconds). */
const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * `column` (a timestamptz expression, evaluated up to three times: pass a column or a stable expression) as the
 * JSON string the `DateTime` scalar serializes a `Date` to: ISO 8601 in UTC with milliseconds, quoted, e.g.
 * `"2026-11-22T20:10:26.123Z"`; SQL null for null (and for an infinite timestamp).
 *
 * For years 1 to 9999 it cuts PostgreSQL's JSON text of the timestamp truncated to milliseconds plus one
 * microsecond (always six fraction digits, so always 26 characters with its quote: `"YYYY-MM-DDTHH:MI:SS.mmm001`)
 * after the milliseconds: the same text as `to_char` with the format above, at about 0.6 of its cost (to_char
 * interprets its format for every value; measured 0.59 vs 0.93 µs per value, docs/performance.md). JSON output
 * of a timestamp is ISO 8601 whatever the session's DateStyle. Other years (and infinity) take `to_char`.
 */
export function isoTimeJsonSql(column: string): string {
  const utc = `${column} at time zone 'UTC'`;
  return `(case when ${column} >= '0001-01-01Z' and ${column} < '10000-01-01Z'
    then left(to_json(date_trunc('milliseconds', ${utc}) + interval '1 microsecond')::text, 24) || 'Z"'
    else '"' || to_char(${utc}, ${ISO_FORMAT}) || '"' end)`;
}
