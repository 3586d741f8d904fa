/**
 * SQL for timestamps read by compiled reads (issues 15, 21): rendered as text in PostgreSQL, truncated to whole
 * milliseconds as a JavaScript `Date` holds them (PostgreSQL keeps microseconds).
 */

/**
 * `column` (timestamptz) as the text the `DateTime` scalar serializes a `Date` to: ISO 8601 in UTC with
 * milliseconds, e.g. `2026-11-22T20:10:26.123Z` (null stays null).
 */
export function isoTimeSql(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
