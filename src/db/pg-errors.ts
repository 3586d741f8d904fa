/**
 * Reading PostgreSQL errors (below every layer that reports them: auth, shared, modules, transport).
 */

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

/** The row a write referenced that was not there: the referenced table and the key value the write gave. */
export interface MissingReference {
  /** Referenced table, e.g. `environments`. */
  table: string;
  /** The referencing column's value, e.g. an `env_…` id. */
  key: string;
}

const NOT_PRESENT = /^Key \([^)]*\)=\((.*)\) is not present in table "([^"]+)"\.?$/;

/**
 * The missing row of a foreign key violation (SQLSTATE 23503) raised by an insert or update whose referenced row
 * does not exist — typically deleted by a concurrent transaction between the caller's check and its write — read
 * from PostgreSQL's `detail` (`Key (environment_id)=(env_…) is not present in table "environments".`); null for
 * any other error, including a delete still referenced elsewhere.
 */
export function missingReference(error: unknown): MissingReference | null {
  if (pgErrorCode(error) !== "23503") return null;
  for (const e of [error, (error as { nativeError?: unknown } | null)?.nativeError]) {
    const detail = (e as { detail?: unknown } | null)?.detail;
    const match = typeof detail === "string" ? NOT_PRESENT.exec(detail) : null;
    if (match) return { key: match[1]!, table: match[2]! };
  }
  return null;
}

/**
 * True for the failures PostgreSQL asks a client to retry: a deadlock (SQLSTATE 40P01) or a serialization failure
 * (40001). The transaction was rolled back whole, so running it again from its start is safe.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === "40P01" || code === "40001";
}
