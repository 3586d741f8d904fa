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
 * What a unique constraint's violation answers: its message, and the input field whose value is taken (the error's
 * `fieldErrors`, so that a form shows it under that field), when the caller gave that value.
 */
export type ConflictAnswer = string | { message: string; field: string };

/**
 * Runs `work`; a unique violation of a constraint listed in `answers` is rethrown as a ConflictError with that
 * constraint's message and field (e.g. `{ projects_organization_id_name_unique: { message: 'A project named "x"
 * exists', field: "name" } }`).
 * @throws ConflictError for listed constraints; anything else unchanged.
 */
export async function translateUniqueViolations<T>(
  work: () => PromiseLike<T>,
  answers: Readonly<Record<string, ConflictAnswer>>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = uniqueViolation(error);
    const answer = constraint === null ? undefined : answers[constraint];
    if (answer === undefined) throw error;
    if (typeof answer === "string") throw new ConflictError(answer);
    throw new ConflictError(answer.message, { [answer.field]: [answer.message] });
  }
}
