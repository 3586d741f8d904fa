/**
 * Relay-style forward pagination helpers: opaque cursors (base64url of the row id) and argument checks.
 */
import { ID_PREFIX, type IdKind } from "../db/ids.ts";
import { BadUserInputError } from "./errors.ts";

/** Longest cursor accepted: `c:` and the longest id of {@link ID_PREFIX} in base64url (44 characters), with room. */
const MAX_CURSOR_LENGTH = 64;

/** The 26 characters of a TypeID after its prefix (src/db/ids.ts): lowercase Crockford base32, the first 0–7. */
const TYPEID_SUFFIX = "[0-7][0-9a-hjkmnp-tv-z]{25}";

/** Any Skiff id: a lowercase prefix of {@link ID_PREFIX}'s form, `_`, the TypeID suffix. */
const ANY_ID = new RegExp(`^[a-z]{1,8}_${TYPEID_SUFFIX}$`);

/** Ids of each kind, by its prefix. */
const idPatterns = new Map<IdKind, RegExp>();

/**
 * Decodes an opaque cursor (`base64url("c:" + id)`, written by compiled reads: `cursorSql` of
 * src/reads/declarations.ts) to the id of the row it names, which must be an id of `kind` (src/db/ids.ts; any
 * Skiff id when omitted): a forged cursor (another table's id, SQL, a NUL byte, …) is refused before any SQL.
 * @throws BadUserInputError "Invalid cursor" with `fieldErrors[field]` (default `after`) on anything else.
 */
export function decodeCursor(cursor: string, kind?: IdKind, field = "after"): string {
  const raw =
    cursor.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9_-]+$/.test(cursor)
      ? Buffer.from(cursor, "base64url").toString("utf8")
      : "";
  const id = raw.startsWith("c:") ? raw.slice(2) : "";
  if (!idPattern(kind).test(id)) {
    throw new BadUserInputError("Invalid cursor", { fieldErrors: { [field]: ["Not a cursor returned by this API"] } });
  }
  return id;
}

/** The pattern of the ids of `kind` (any Skiff id when omitted). */
function idPattern(kind: IdKind | undefined): RegExp {
  if (!kind) return ANY_ID;
  let pattern = idPatterns.get(kind);
  if (!pattern) {
    pattern = new RegExp(`^${ID_PREFIX[kind]}_${TYPEID_SUFFIX}$`);
    idPatterns.set(kind, pattern);
  }
  return pattern;
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
