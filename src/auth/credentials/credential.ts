/**
 * What every credential strategy of this folder shares: reading a credential from a request's headers, the
 * member standing's SQL handed in by the access module (src/auth is below the modules), the fingerprint that tells
 * an unchanged caller, the bounded memory of callers resolved before, and the shape of a remembered caller that the
 * statement reading for the request confirms (authentication and data in one round trip).
 */
import type { Knex } from "knex";
import type { Caller } from "../caller.ts";

/** What reading a request's credentials needs of its headers: WHATWG `Headers`, or a lighter view with the same `get`. */
export type HeaderReader = Pick<Headers, "get">;

/**
 * The bearer credential sent with `headers` (an API key, a user JWT or an agent token), or null:
 * `Authorization: Bearer <credential>` or `x-api-key: <credential>` (spec: Authentication; the two are equivalent).
 * A repeated header arrives as one value, its values joined with ", " (Node joins a repeated `x-api-key`; the
 * transport joins a repeated `Authorization`: src/server/authenticate.ts); no credential holds a comma. Two
 * different credentials (in both headers, or in one header repeated) give {@link CONFLICTING_CREDENTIALS}, which no
 * credential matches: every credential presented must verify (a 401), so a request never runs as one of two callers
 * picked by header order. The same credential repeated is one credential.
 */
export function bearerCredential(headers: HeaderReader): string | null {
  const authorization = headers.get("authorization")?.split(",") ?? [];
  const bearers = authorization.map((value) => /^\s*Bearer\s+(\S+)\s*$/i.exec(value)?.[1] || null);
  // Repeated, every value must be a bearer credential: anything else beside one is a second credential.
  if (bearers.length > 1 && bearers.includes(null)) return CONFLICTING_CREDENTIALS;
  const keys = (headers.get("x-api-key") ?? "").split(",").map((value) => value.trim());
  const credentials = new Set([...bearers, ...keys].filter((value): value is string => !!value));
  if (credentials.size > 1) return CONFLICTING_CREDENTIALS;
  return credentials.values().next().value ?? null;
}

/** The credential of a request with two different ones: a value of no credential's form (an API key's lookup misses it). */
const CONFLICTING_CREDENTIALS = "conflicting-credentials";

/** Three base64url segments: a JWT, never an API key (`skiff_…`). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** True when a bearer credential has a JWT's shape (then it is verified as a user JWT, never looked up as a key). */
export function isJwt(credential: string): boolean {
  return JWT_SHAPE.test(credential);
}

/**
 * How a credential statement reads a member's standing: `standingJoin(alias, condition)` gives a join with the
 * `StandingColumns` (src/auth/access/standing.ts) of the member row `condition` selects, and
 * `standingJoin(alias, condition, "version")` one with its `memberId`, `role` and `standingVersion` only (enough to
 * confirm a remembered caller: see {@link standingFingerprintSql}) — the access module's `memberStandingJoinSql`,
 * handed down by the transport.
 */
export type StandingJoin = (
  alias: string,
  condition: (member: string) => string,
  columns?: "standing" | "version",
) => string;

/**
 * A user's memberships as SQL, handed in by the access module (which owns `members`). Both take SQL expressions.
 */
export interface UserMembershipsSql {
  /**
   * Text equal for two reads exactly when the user's member rows are: each member's id, organization, role and
   * standing version (which grows with any change to its grants, plan or the user's e-mail).
   */
  fingerprint(userIdSql: string): string;
  /**
   * A `json` array of the user's memberships (`{ organizationId, …StandingColumns }`), the one in organization
   * `activeOrganizationSql` first, then by the membership's age (`'[]'` for none).
   */
  standings(userIdSql: string, activeOrganizationSql: string): string;
}

/**
 * The SQL text that is equal for two reads of a caller exactly when the caller is unchanged: `credential` (SQL
 * expressions of the credential row's own columns) and the member's id, role and standing version from a
 * {@link StandingJoin} named `alias` (either columns). The version grows in the transaction of any change to the
 * member's grants, plan, plan features, granted applications' projects or user's email (migration
 * 20261126100000_member_standing_versions), so the text changes with the standing.
 */
export function standingFingerprintSql(credential: readonly string[], alias: string): string {
  return `row(${[...credential, `${alias}."memberId"`, `${alias}.role`, `${alias}."standingVersion"`].join(", ")})::text`;
}

/**
 * A caller this process resolved before from the same credential, remembered but not trusted: the statement that
 * reads for the request resolves the credential again, and its answer is used only when the caller is unchanged.
 * Built by the credential's strategy; used by the transport (src/server/remembered-callers.ts).
 */
export interface RememberedCaller {
  /**
   * The remembered entry itself: the same object for as long as the credential is remembered as it was resolved (a
   * new resolution remembers a new one), so what was compiled for this caller may be reused with it.
   */
  identity: object;
  /** A new caller object as it was resolved (an access scope takes its `access` and `memberships`). */
  caller(): Caller;
  /** The read `sql` (`?` placeholders, one row) with `bindings`, wrapped so that it resolves the credential too. */
  statement(sql: string, bindings: readonly unknown[]): { sql: string; bindings: unknown[] };
  /**
   * The read's own row of a wrapped statement when it found the caller unchanged (and allowed: an agent token within
   * its rate limit); null when not — then authenticate the request the ordinary way.
   */
  confirmed(row: Record<string, unknown> | undefined): Promise<Record<string, unknown> | null>;
}

/** A credential this process resolved, as its strategy remembers it (see {@link rememberedCallerOf}). */
interface Remembered {
  /** The remembered entry ({@link RememberedCaller.identity}). */
  identity: object;
  /** A new caller object as it was resolved. */
  caller(): Caller;
  /** The credential row's fingerprint when it was resolved. */
  fingerprint: string;
  /**
   * The statement resolving the credential again: common table expressions ending in one named `caller` with a
   * `"fingerprint"` column, and its bindings.
   */
  check: { sql: string; bindings: readonly unknown[] };
  /** Caller columns the confirming statement selects besides the fingerprint (SQL: `, c."x" as "callerX"`, …). */
  columns: string;
  /** Further conditions on a row whose fingerprint matched (and what its confirmation records); default: none. */
  accept?(row: Record<string, unknown>): Promise<boolean> | boolean;
}

/**
 * The identity, caller and fingerprint of a remembered `known` entry that keeps its caller as resolved: each request
 * gets a copy (an access scope clears the copy's `access` and `memberships`, never the entry's).
 */
export function knownCaller(known: {
  caller: Caller;
  fingerprint: string;
}): Pick<Remembered, "identity" | "caller" | "fingerprint"> {
  return { identity: known, caller: () => ({ ...known.caller }), fingerprint: known.fingerprint };
}

/**
 * The {@link RememberedCaller} of `entry`: its statement resolves the credential first (`entry.check`) and the read
 * (`sql`) only when the fingerprint is unchanged (else the read's columns are null: PostgreSQL may still evaluate
 * it, whose values are dropped by the join's filter); no row: the credential no longer resolves. Its row is the
 * read's when the fingerprint matched and `entry.accept` agrees.
 */
export function rememberedCallerOf(entry: Remembered): RememberedCaller {
  return {
    identity: entry.identity,
    caller: entry.caller,
    statement: (sql, bindings) => ({
      sql: `${entry.check.sql}
select c."fingerprint" as "callerFingerprint"${entry.columns}, d.*
from caller c left join lateral (select * from (${sql}) d0 where c."fingerprint" = ?) d on true`,
      bindings: [...entry.check.bindings, ...bindings, entry.fingerprint],
    }),
    async confirmed(row) {
      if (!row || row.callerFingerprint !== entry.fingerprint) return null;
      return !entry.accept || (await entry.accept(row)) ? row : null;
    },
  };
}

/** How many credentials of one kind a process remembers; the least recently used go first past the bound. */
const MAX_REMEMBERED = 10_000;

/** Remembers (or renews, as the most recently used) `value` under `key` in `memory`, dropping the oldest past the bound. */
export function remember<V>(memory: Map<string, V>, key: string, value: V): V {
  memory.delete(key);
  memory.set(key, value);
  if (memory.size > MAX_REMEMBERED) memory.delete(memory.keys().next().value as string);
  return value;
}

/**
 * What a failed better-auth call comes to: better-auth answers its own database errors as an opaque 500
 * (`FAILED_TO_GET_SESSION`, the cause left out) or, verifying a JWT, as no payload at all, so when the database does
 * not answer a trivial statement either, that outage is thrown instead (the transport answers it 503 with
 * Retry-After, as for every other caller); else `error` is thrown as it is, or, when it is null (a refusal, not an
 * error), null is returned: no caller.
 */
export async function outageOr(knex: Knex, error: unknown): Promise<null> {
  const probe = await knex.raw("select 1").then(
    () => null,
    (outage: unknown) => outage,
  );
  if (probe ?? error) throw probe ?? error;
  return null;
}
