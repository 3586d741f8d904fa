/**
 * GraphQL errors with a fixed `extensions.code`. REST routes map the same codes to HTTP statuses.
 * Unknown exceptions are masked as INTERNAL_SERVER_ERROR by the error formatter (src/server/format-error.ts).
 */
import { GraphQLError } from "graphql";

/** Codes a client can rely on (in `errors[].extensions.code`). */
export type ErrorCode =
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "BAD_USER_INPUT"
  | "CONFLICT"
  | "IDEMPOTENCY_KEY_REUSED"
  | "RATE_LIMITED"
  | "CURSOR_EXPIRED"
  | "INTERNAL_SERVER_ERROR";

/** Base class: a GraphQLError whose extensions carry `code` and optional details. */
export class AppError extends GraphQLError {
  constructor(code: ErrorCode, message: string, extensions: Record<string, unknown> = {}) {
    super(message, { extensions: { ...extensions, code } });
  }
}

/** No valid credentials. On /graphql the response status is 401 (Apollo reads and strips `extensions.http`). */
export class UnauthenticatedError extends AppError {
  constructor(message = "Authentication required: send a session cookie or an API key") {
    super("UNAUTHENTICATED", message, { http: { status: 401 } });
  }
}

/** Characters of a caller-given value (an id, a name) that an error message repeats. */
const ECHOED_CHARS = 80;

/**
 * `value` (an id or name the caller sent) as an error message repeats it: whole up to 80 characters (every id Skiff
 * issues is shorter), else its first 80 followed by `…` and its length, so that a hostile megabyte-long value is not
 * sent back whole.
 */
export function echoed(value: string): string {
  if (value.length <= ECHOED_CHARS) return value;
  // Cut at a code unit: a surrogate pair split in two is made well formed.
  return `${value.slice(0, ECHOED_CHARS).toWellFormed()}… (${value.length} characters)`;
}

/** How many caller-given values a message lists (see {@link echoedList}). */
const ECHOED_VALUES = 5;

/**
 * `values` (names the caller sent: unknown event names, fields) as an error message lists them: the first 5, each
 * {@link echoed}, joined by `, `, then `and N more` when there are more — so that a long list of long values is not
 * sent back whole. E.g. `a, b, c, d, e and 2 more`.
 */
export function echoedList(values: readonly string[]): string {
  const listed = values.slice(0, ECHOED_VALUES).map(echoed).join(", ");
  return values.length > ECHOED_VALUES ? `${listed} and ${values.length - ECHOED_VALUES} more` : listed;
}

/** The resource does not exist or is invisible to the caller (the two are indistinguishable; HTTP 404). */
export class NotFoundError extends AppError {
  constructor(what: string, id: string) {
    super("NOT_FOUND", `${what} ${echoed(id)} not found`);
  }
}

/** The caller sees the resource but its role does not allow the action (HTTP 403). */
export class ForbiddenError extends AppError {
  constructor(message: string, extensions: Record<string, unknown> = {}) {
    super("FORBIDDEN", message, extensions);
  }
}

/**
 * Invalid input (HTTP 400). `fieldErrors` maps a field path (dot-separated) to messages;
 * `formErrors` holds messages about the input as a whole.
 */
export class BadUserInputError extends AppError {
  constructor(message: string, details: { fieldErrors?: Record<string, string[]>; formErrors?: string[] } = {}) {
    super("BAD_USER_INPUT", message, {
      fieldErrors: details.fieldErrors ?? {},
      formErrors: details.formErrors ?? [],
    });
  }
}

/**
 * A live-event cursor (`after`) older than the event log's retention: events after it may be gone, so no gapless
 * replay is possible; the client reads the current state and subscribes without `after` (HTTP 410 where mapped).
 */
export class CursorExpiredError extends AppError {
  constructor(message: string) {
    super("CURSOR_EXPIRED", message);
  }
}

/** The write conflicts with existing state, e.g. a duplicate name (HTTP 409). */
export class ConflictError extends AppError {
  /** `fieldErrors` (as BadUserInputError's) names the input field whose value conflicts, e.g. `{ name: [message] }`. */
  constructor(message: string, fieldErrors?: Record<string, string[]>) {
    super("CONFLICT", message, fieldErrors ? { fieldErrors } : {});
  }
}

/**
 * An idempotency key was sent again with a different request (HTTP 422): the key stays bound to its first request
 * until it expires. `extensions.idempotencyKey` names the key.
 */
export class IdempotencyKeyReusedError extends AppError {
  constructor(message: string, key: string) {
    super("IDEMPOTENCY_KEY_REUSED", message, { idempotencyKey: key });
  }
}

/**
 * Too many requests of one kind in a window (HTTP 429). `retryAfterSeconds` is in `extensions.retryAfter`; REST
 * rows send it as the `Retry-After` header.
 */
export class RateLimitedError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super("RATE_LIMITED", message, { retryAfter: retryAfterSeconds });
  }
}

/** The one error of an operation stopped at its execution deadline (400 `EXECUTION_TIME_LIMIT`, the limit in ms). */
export function timeLimitError(timeoutMs: number): GraphQLError {
  return new GraphQLError(`Execution time limit of ${timeoutMs} ms exceeded`, {
    extensions: { code: "EXECUTION_TIME_LIMIT", limit: timeoutMs },
  });
}
