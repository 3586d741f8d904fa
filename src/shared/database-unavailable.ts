/**
 * Recognising a database outage: connection refused or reset, a connection cut by the server
 * (SQLSTATE 57P01–57P03, class 08, 53300 too many connections), a login the server refuses (class 28) or no pool
 * connection in time. Such failures are
 * answered 503 with `Retry-After` ({@link RETRY_AFTER_SECONDS}) instead of a masked 500.
 */
import { pgErrorCode } from "../db/pg-errors.ts";

/** The message of every answer refused because the database is unreachable (503, `SERVICE_UNAVAILABLE`). */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "Service temporarily unavailable: the database cannot be reached; retry later";

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
  // Class 28: the server refuses our login (a password rotated, another server on the port): no data can be read.
  if (sqlState && /^(08|57P|28)/.test(sqlState)) return true;
  if (sqlState === "53300") return true;
  if (typeof e.code === "string" && NODE_CODES.has(e.code)) return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  const wrapped = error as { originalError?: unknown; nativeError?: unknown; cause?: unknown };
  return [wrapped.originalError, wrapped.nativeError, wrapped.cause].some((inner) =>
    isDatabaseUnavailable(inner, depth + 1),
  );
}

/** What {@link retryThroughOutage} tells each try. */
export interface OutageTry {
  /** A previous try failed with a database outage. */
  resumed: boolean;
  /** The time to wait is used up: this is the last try. */
  lastTry: boolean;
}

/**
 * Runs `work`, and again while it fails with a database outage ({@link isDatabaseUnavailable}): waits 1 s, 2 s,
 * 4 s … (at most `maxDelayMs`, default 15 s, apart) for at most `maxWaitMs` in all (work done in memory —
 * a webhook attempt's outcome, an import step — is recorded once the database is back instead of being lost).
 * `onOutage` is told of each outage failure before the wait.
 * @throws the error of the last try (any other error at once), or `signal`'s reason as soon as it aborts.
 */
export async function retryThroughOutage<T>(
  work: (attempt: OutageTry) => Promise<T>,
  options: {
    signal?: AbortSignal;
    maxWaitMs: number;
    maxDelayMs?: number;
    onOutage?: (error: unknown, waitMs: number) => void;
  },
): Promise<T> {
  const started = Date.now();
  let resumed = false;
  for (let wait = 1000; ; wait = Math.min(wait * 2, options.maxDelayMs ?? 15_000)) {
    const lastTry = Date.now() - started > options.maxWaitMs;
    try {
      return await work({ resumed, lastTry });
    } catch (error) {
      if (!isDatabaseUnavailable(error) || lastTry) throw error;
      options.onOutage?.(error, wait);
      await pause(wait, options.signal);
      resumed = true;
    }
  }
}

/** Resolves after `ms`, or rejects at once when `signal` aborts (instance shutting down). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
