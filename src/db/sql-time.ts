/**
 * SQL for timestamps read by compiled reads: rendered as text in PostgreSQL, truncated to whole
 * milliseconds as a JavaScript `Date` holds them (PostgreSQL keeps microseconds).
 */

/**
 * The `to_char` format of the `DateTime` scalar's JSON string: ISO 8601, UTC, milliseconds, between double quotes
 * (`\"` is a literal quote in a `to_char` format; an E-string, so that the backslash reaches `to_char` whatever
 * `standard_conforming_strings` says).
 */
const ISO_JSON_FORMAT = `E'\\\\"YYYY-MM-DD"T"HH24:MI:SS.MS"Z\\\\"'`;

/**
 * `column` (a timestamptz expression) as the JSON string the `DateTime` scalar serializes a `Date` to: ISO 8601 in
 * UTC with milliseconds (truncated), quoted, e.g. `"2026-11-22T20:10:26.123Z"`; SQL null for null and for an
 * infinite timestamp. Independent of the session's DateStyle and TimeZone.
 *
 * One `to_char` call with the quotes in its format: two expression nodes, which PostgreSQL sets up on every
 * execution of a statement. The cut JSON text of the timestamp used before (a `case` on the year range, `date_trunc`,
 * an interval, `to_json`, `left`, `||`: a dozen nodes) wrote the same text at about the same cost per value
 * (0.58 µs against 0.54 on PostgreSQL 18) but cost ~2 µs of set-up per timestamp field in every execution: 11 µs of
 * the 95 of shape 5's statement of bench:peer (2-core VM, 2026-11-27).
 */
export function isoTimeJsonSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', ${ISO_JSON_FORMAT})`;
}
