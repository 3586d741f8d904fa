/**
 * Relay-style forward pagination helpers: opaque cursors (base64url of the row id) and argument checks.
 */
import { BadUserInputError } from "./errors.ts";

/**
 * Decodes an opaque cursor (`base64url("c:" + id)`, written by compiled reads: `cursorSql` of
 * src/reads/compiler.ts). @throws BadUserInputError on anything else.
 */
export function decodeCursor(cursor: string): string {
  const raw = Buffer.from(cursor, "base64url").toString("utf8");
  if (!raw.startsWith("c:") || raw.length < 3) {
    throw new BadUserInputError("Invalid cursor", { fieldErrors: { after: ["Not a cursor returned by this API"] } });
  }
  return raw.slice(2);
}

/**
 * Checks a page size `first` against `1..max`.
 * @throws BadUserInputError naming `field` when out of range.
 */
export function checkPageSize(first: number, max: number, field = "first"): number {
  if (!Number.isInteger(first) || first < 1 || first > max) {
    throw new BadUserInputError(`${field} must be between 1 and ${max}`, {
      fieldErrors: { [field]: [`Must be an integer from 1 to ${max}`] },
    });
  }
  return first;
}

/** What a `*Connection` resolver returns: edges, page info and a lazily counted total. */
export interface ConnectionModel<T> {
  edges: Array<{ cursor: string; node: T }>;
  /** The nodes of `edges`, in order. */
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /** Called only when the client selects `totalCount`. */
  totalCount: () => Promise<number>;
}
