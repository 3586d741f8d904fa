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
