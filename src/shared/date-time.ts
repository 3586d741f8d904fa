/**
 * The one rule for date-time text: what the GraphQL `DateTime` scalar (graphql-scalars) accepts — RFC 3339 with a
 * time zone offset (`Z` or `±hh:mm`) on a real calendar date (no 30 February). REST rows check their date-time
 * parameters with it, so a bad value answers that field's 400 rather than the operation's variable error.
 */
import { DateTimeResolver } from "graphql-scalars";

/** True when `text` is a date-time the GraphQL `DateTime` scalar accepts (see the file comment). */
export function isDateTime(text: string): boolean {
  try {
    DateTimeResolver.parseValue(text);
    return true;
  } catch {
    return false;
  }
}
