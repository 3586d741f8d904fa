/**
 * SQL expressions for timestamps read on the hot path (issue 15). Both truncate to whole milliseconds, as a
 * JavaScript `Date` holds them, so a time read as epoch milliseconds and one rendered as text by PostgreSQL
 * agree to the millisecond (PostgreSQL keeps microseconds).
 */

/** `column` (timestamptz) as epoch milliseconds, a float8 holding an integer (null stays null). */
export function epochMsSql(column: string): string {
  return `(extract(epoch from date_trunc('milliseconds', ${column})) * 1000)::float8`;
}

/**
 * `column` (timestamptz) as the text the `DateTime` scalar serializes a `Date` to: ISO 8601 in UTC with
 * milliseconds, e.g. `2026-11-22T20:10:26.123Z` (null stays null).
 */
export function isoTimeSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
