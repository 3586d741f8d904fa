/**
 * The one place where PostgreSQL constraint violations become API errors. Services name the unique
 * constraints they expect and the message to show; any other violation stays an unexpected error.
 */
import { ConflictError } from "./errors.ts";

/** SQLSTATE of a PostgreSQL error, raw or wrapped by Objection (`nativeError`), else null. */
export function pgErrorCode(error: unknown): string | null {
  for (const e of [error, (error as { nativeError?: unknown } | null)?.nativeError]) {
    const code = (e as { code?: unknown } | null)?.code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/**
 * True for PostgreSQL "data exception" errors (SQLSTATE class 22: NUL bytes, invalid text representation,
 * numeric out of range...), which only bad input values cause.
 */
export function isDataException(error: unknown): boolean {
  return pgErrorCode(error)?.startsWith("22") ?? false;
}

/** Name of the unique constraint violated by `error` (pg code 23505, raw or wrapped by Objection), else null. */
export function uniqueViolation(error: unknown): string | null {
  const candidates = [error, (error as { nativeError?: unknown } | null)?.nativeError];
  for (const e of candidates) {
    const pgError = e as { code?: unknown; constraint?: unknown } | null;
    if (pgError?.code === "23505") return typeof pgError.constraint === "string" ? pgError.constraint : "";
  }
  const wrapped = error as { name?: unknown; constraint?: unknown } | null;
  if (wrapped?.name === "UniqueViolationError") return typeof wrapped.constraint === "string" ? wrapped.constraint : "";
  return null;
}

/**
 * Runs `work`; a unique violation of a constraint listed in `messages` is rethrown as a ConflictError with
 * that constraint's message (e.g. `{ projects_organization_id_name_unique: 'A project named "x" exists' }`).
 * @throws ConflictError for listed constraints; anything else unchanged.
 */
export async function translateUniqueViolations<T>(
  work: () => PromiseLike<T>,
  messages: Readonly<Record<string, string>>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = uniqueViolation(error);
    const message = constraint === null ? undefined : messages[constraint];
    if (message !== undefined) throw new ConflictError(message);
    throw error;
  }
}
