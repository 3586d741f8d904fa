/**
 * The one place where PostgreSQL constraint violations become API errors. Services name the unique
 * constraints they expect and the message to show; any other violation stays an unexpected error.
 */
import { ConflictError } from "./errors.ts";

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
