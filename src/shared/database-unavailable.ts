/**
 * Recognising a database outage (issue 16 item 14): connection refused or reset, a connection cut by the server
 * (SQLSTATE 57P01–57P03, class 08, 53300 too many connections) or no pool connection in time. Such failures are
 * answered 503 with `Retry-After` ({@link RETRY_AFTER_SECONDS}) instead of a masked 500.
 */
import { pgErrorCode } from "./constraint-errors.ts";

/** Seconds a client is told to wait (`Retry-After`) when the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

const NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);
const MESSAGES =
  /Connection terminated|Timeout acquiring a connection|connection error|ECONNREFUSED|the database system is (starting up|shutting down)|terminating connection/i;

/** True when `error` (or what it wraps: `originalError`, `nativeError`, `cause`, AggregateError members) is a database outage. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; errors?: unknown };
  const sqlState = pgErrorCode(error);
  if (sqlState && (sqlState.startsWith("08") || sqlState.startsWith("57P") || sqlState === "53300")) return true;
  if (typeof e.code === "string" && NODE_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  const wrapped = error as { originalError?: unknown; nativeError?: unknown; cause?: unknown };
  return [wrapped.originalError, wrapped.nativeError, wrapped.cause].some((inner) =>
    isDatabaseUnavailable(inner, depth + 1),
  );
}
