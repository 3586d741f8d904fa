/**
 * Who is calling: from an account API key (`Authorization: Bearer <key>` or `x-api-key: <key>`, equivalent)
 * or from the better-auth session cookie. Spec: "Authentication / Site import API" and
 * "Organization and access resources" (a key is bound to the organization active at its creation and carries
 * its creator's current role there).
 */
import { hash } from "node:crypto";
import type { Knex } from "knex";
import type { Auth } from "./auth.ts";
import {
  callerFromJwt,
  callerFromSession,
  type SessionCallerOptions,
  type SessionMembership,
} from "./session-caller.ts";

/** A role of a member in an organization (spec: Role table). */
export type Role = "owner" | "admin" | "member";

/** The authenticated caller of one request. */
export interface Caller {
  userId: string;
  email: string;
  /** The organization the request acts on: the key's, or the session's active one (else first membership). */
  organizationId: string | null;
  /** The caller's current role in `organizationId`; null when there is no organization. */
  role: Role | null;
  memberId: string | null;
  via: "session" | "apiKey";
  /** Set when `via` is "apiKey". */
  apiKeyId?: string;
  /** Set when `via` is "session": the `sessions` row id. */
  sessionId?: string;
  /** Set when `via` is "apiKey": plan features and grants, loaded with the key. */
  standing?: CallerStanding;
  /** Set for a session: every membership of the user with its standing, the acting one first (session-caller.ts). */
  memberships?: SessionMembership[];
}

/**
 * Hash under which an API key is stored (`api_keys.key`): SHA-256 of its UTF-8 bytes, base64url without padding —
 * the api-key plugin's `defaultKeyHasher`, computed with node:crypto in the request's own thread (the plugin's
 * WebCrypto digest is a thread-pool round trip per request; test/auth/auth.test.ts checks both agree).
 */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "base64url");
}

/** The API key sent with `headers`, or null; `Authorization: Bearer` wins over `x-api-key`. */
export function apiKeyFromHeaders(headers: HeaderReader): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (match?.[1]) return match[1];
  return headers.get("x-api-key")?.trim() || null;
}

/** What reading a request's credentials needs of its headers: WHATWG `Headers`, or a lighter view with the same `get`. */
export type HeaderReader = Pick<Headers, "get">;

/** Highest of the roles stored in `members.role` (better-auth allows a comma-separated list). */
export function toRole(stored: string | null | undefined): Role | null {
  const roles = (stored ?? "").split(",").map((r) => r.trim());
  return (["owner", "admin", "member"] as const).find((r) => roles.includes(r)) ?? null;
}

/** One grant of a member (`member_grants`): a project, or an application with its project. */
export interface CallerGrant {
  projectId: string | null;
  applicationId: string | null;
  /** The granted application's project (null for a project grant). */
  applicationProjectId: string | null;
}

/** The caller's standing in its organization, loaded with an API key in the same statement. */
export interface CallerStanding {
  /** Features of the organization's plan (`plans.features`). */
  planFeatures: string[];
  /** The member's grants (empty: none; the role decides whether grants limit it). */
  grants: CallerGrant[];
}

/**
 * The columns a {@link StandingJoin} gives: the member's id and stored role, its standing version, the plan's
 * features, its grants.
 */
export interface StandingColumns {
  memberId: string;
  role: string;
  /** `members.standing_version` as text: grows with every change to the standing beyond the member row. */
  standingVersion: string;
  planFeatures: string[];
  /** [projectId, applicationId, applicationProjectId] triples. */
  grants: Array<[string | null, string | null, string | null]>;
}

/** The grants of {@link StandingColumns} as {@link CallerGrant}s. */
export function grantsFromColumns(grants: StandingColumns["grants"]): CallerGrant[] {
  return grants.map(([projectId, applicationId, applicationProjectId]) => ({
    projectId,
    applicationId,
    applicationProjectId,
  }));
}

interface KeyRow extends StandingColumns {
  id: string;
  userId: string;
  email: string;
  organizationId: string;
  /** True when `last_request` is older than {@link LAST_USED_RESOLUTION_SECONDS} (or unset). */
  stale: boolean;
  /** The key and the member's id, role and standing version as one text: equal texts, equal callers ({@link standingFingerprintSql}). */
  fingerprint: string;
}

/** How often `api_keys.last_request` ("last used") is written for a busy key: at most once a minute. */
const LAST_USED_RESOLUTION_SECONDS = 60;

/** The columns of an API key row that its caller's fingerprint covers (see {@link standingFingerprintSql}). */
const KEY_FINGERPRINT = ["k.id", "k.reference_id", "k.organization_id"];

/**
 * The statement of an API key: key, creator, membership, plan features and grants in one statement
 * (authentication costs one SQL statement), the standing joined with `standingJoin` (the access module's, given
 * by the transport). Unknown, disabled and expired keys and keys whose creator left the organization give no row.
 * With `check`, the statement that confirms a remembered caller: the key and the member row alone (`id`, `stale`,
 * `fingerprint`), the same fingerprint without the creator, the plan or the grants.
 */
function apiKeySql(standingJoin: StandingJoin, check = false): string {
  const member = (m: string) => `${m}.user_id = k.reference_id and ${m}.organization_id = k.organization_id`;
  return `select k.id as "id",
    (k.last_request is null or k.last_request < now() - make_interval(secs => ${LAST_USED_RESOLUTION_SECONDS})) as "stale",
    ${standingFingerprintSql(KEY_FINGERPRINT, "s")} as "fingerprint"${
      check
        ? ""
        : `,
    k.reference_id as "userId", u.email as "email", k.organization_id as "organizationId", s.*`
    }
  from api_keys k
  ${check ? "" : "join users u on u.id = k.reference_id"}
  ${standingJoin("s", member, check ? "version" : "standing")}
  where k.key = ? and k.enabled and (k.expires_at is null or k.expires_at > now())
  limit 1`;
}

/**
 * How resolveCaller reads a member's standing: `standingJoin(alias, condition)` gives a join with the
 * {@link StandingColumns} of the member row `condition` selects, and `standingJoin(alias, condition, "version")`
 * one with its `memberId`, `role` and `standingVersion` only (enough to confirm a remembered caller: see
 * {@link standingFingerprintSql}) — the access module's `memberStandingJoinSql`, handed down by the transport (this
 * layer is below the modules).
 */
export type StandingJoin = (
  alias: string,
  condition: (member: string) => string,
  columns?: "standing" | "version",
) => string;

/**
 * The SQL text that is equal for two reads of a caller exactly when the caller is unchanged (remembered
 * callers): `credential` (SQL expressions of the credential row's own columns) and the member's id, role and
 * standing version from a {@link StandingJoin} named `alias` (either columns). The version grows in the transaction
 * of any change to the member's grants, plan, plan features, granted applications' projects or user's email
 * (migration 20261126100000_member_standing_versions), so the text changes with the standing.
 */
export function standingFingerprintSql(credential: readonly string[], alias: string): string {
  return `row(${[...credential, `${alias}."memberId"`, `${alias}.role`, `${alias}."standingVersion"`].join(", ")})::text`;
}

/** Statements built per `standingJoin` (one per process in practice): the key's and the confirming one. */
const apiKeyStatements = new WeakMap<StandingJoin, { resolve: string; check: string }>();

/** The key statements of `standingJoin` ({@link apiKeySql} without and with `check`), built once. */
function apiKeySqlOf(standingJoin: StandingJoin): { resolve: string; check: string } {
  let sql = apiKeyStatements.get(standingJoin);
  if (!sql) {
    sql = { resolve: apiKeySql(standingJoin), check: apiKeySql(standingJoin, true) };
    apiKeyStatements.set(standingJoin, sql);
  }
  return sql;
}

/**
 * Resolves the key in one query; null when unknown, disabled, expired, or when its creator is no longer a
 * member of the key's organization (spec: then callers receive 401). The caller carries its standing
 * (plan features and grants) so that the request's access scope needs no second statement.
 */
async function callerFromApiKey(knex: Knex, key: string, options: CallerOptions): Promise<Caller | null> {
  const { standingJoin, onError = () => {}, prepare = false } = options;
  const sql = apiKeySqlOf(standingJoin).resolve;
  const keyHash = hashApiKey(key);
  const query = knex.raw(sql, [keyHash]);
  // Prepared once per connection (not behind a transaction-mode pooler): every request with a key runs it.
  const result: { rows: KeyRow[] } = await (prepare ? query.options({ name: "skiff_api_key_caller" }) : query);
  const row = result.rows[0];
  const caller = row ? callerOfRow(row) : null;
  if (!row || !caller) {
    remembered.delete(keyHash);
    return null;
  }
  if (row.stale) touchApiKey(knex, row.id, onError);
  remember(keyHash, caller, row.fingerprint);
  return caller;
}

/** The caller a key's row describes; null when the stored role is none of Skiff's (→ 401). */
function callerOfRow(row: KeyRow): Caller | null {
  const role = toRole(row.role);
  if (!role) return null;
  return {
    userId: row.userId,
    email: row.email,
    organizationId: row.organizationId,
    role,
    memberId: row.memberId,
    via: "apiKey",
    apiKeyId: row.id,
    standing: {
      planFeatures: row.planFeatures,
      grants: grantsFromColumns(row.grants),
    },
  };
}

/**
 * A caller this process resolved from the same key before, to be confirmed in the statement that reads for it
 * (authentication and data in one round trip). Never trusted by itself: a key deleted, disabled or
 * expired, or a standing changed since (role, grants, plan, membership) makes the confirmation fail, and the
 * request is then authenticated the ordinary way ({@link resolveCaller}) before anything is answered — so
 * "deleting a key takes effect at once" (spec: Organization and access resources) holds on every instance.
 */
export interface RememberedCaller {
  caller: Caller;
  /** {@link hashApiKey} of the key presented. */
  keyHash: string;
  /** The key row's fingerprint when it was resolved. */
  fingerprint: string;
}

/** Keys remembered per process (hash → caller); the oldest entries go first past the bound. */
const remembered = new Map<string, RememberedCaller>();
const MAX_REMEMBERED = 10_000;

/** Remembers (or renews) the caller of key hash `keyHash`, dropping the oldest entry past the bound. */
function remember(keyHash: string, caller: Caller, fingerprint: string): void {
  remembered.delete(keyHash);
  remembered.set(keyHash, { caller, keyHash, fingerprint });
  if (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
}

/**
 * The remembered caller of the API key in `headers` (Bearer or x-api-key; not a JWT), or null when there is no
 * key or it was not resolved by this process before. The caller must be confirmed ({@link confirmingStatement}).
 */
export function rememberedCaller(headers: HeaderReader): RememberedCaller | null {
  const key = apiKeyFromHeaders(headers);
  if (!key || JWT_SHAPE.test(key)) return null;
  return remembered.get(hashApiKey(key)) ?? null;
}

/**
 * Wraps a read statement (`sql` with `?` placeholders, one row) so that it also resolves the remembered key:
 * the result has the key row's `fingerprint` and `stale` columns and, only when the fingerprint is unchanged,
 * the read's own columns (else they are null: PostgreSQL may still evaluate the read, whose values are dropped by the
 * join's filter). No row: the key no longer resolves.
 * Read it with {@link confirmedRow}.
 */
export function confirmingStatement(
  check: RememberedCaller,
  options: Pick<CallerOptions, "standingJoin">,
  sql: string,
  bindings: readonly unknown[],
): { sql: string; bindings: unknown[] } {
  return {
    sql: `with caller as materialized (${apiKeySqlOf(options.standingJoin).check})
select c."fingerprint" as "callerFingerprint", c."stale" as "callerStale", c."id" as "callerKeyId", d.*
from caller c left join lateral (select * from (${sql}) d0 where c."fingerprint" = ?) d on true`,
    bindings: [check.keyHash, ...bindings, check.fingerprint],
  };
}

/**
 * The read's row of a {@link confirmingStatement} when it confirmed `check` (and the key's last use is recorded
 * in the background when due, as {@link resolveCaller} does), or null when it did not: then the request must be
 * authenticated anew and the read run again for whoever that finds.
 */
export function confirmedRow(
  knex: Knex,
  check: RememberedCaller,
  row: Record<string, unknown> | undefined,
  options: Pick<CallerOptions, "onError">,
): Record<string, unknown> | null {
  if (!row || row.callerFingerprint !== check.fingerprint) return null;
  if (row.callerStale) touchApiKey(knex, row.callerKeyId as string, options.onError ?? (() => {}));
  return row;
}

/** When this process last wrote `last_request` per key id (ms since the epoch). */
const touchedAt = new Map<string, number>();

/**
 * Records that key `id` was just used (`last_request`) without delaying the request: the write runs in the
 * background, at most once a minute per key from this process (and the SQL skips it when another instance
 * recorded it < 1 minute ago). Failures go to `onError` (logged), never to the request.
 */
function touchApiKey(knex: Knex, id: string, onError: (error: unknown) => void): void {
  const now = Date.now();
  if (now - (touchedAt.get(id) ?? 0) < LAST_USED_RESOLUTION_SECONDS * 1000) return;
  touchedAt.set(id, now);
  if (touchedAt.size > 10_000) {
    for (const [key, at] of touchedAt) if (now - at >= LAST_USED_RESOLUTION_SECONDS * 1000) touchedAt.delete(key);
  }
  knex("api_keys")
    .where({ id })
    .andWhere((w) =>
      w
        .whereNull("last_request")
        .orWhere("last_request", "<", knex.raw("now() - make_interval(secs => ?)", [LAST_USED_RESOLUTION_SECONDS])),
    )
    .update({ last_request: knex.fn.now() })
    .then(
      () => undefined,
      (error: unknown) => {
        touchedAt.delete(id);
        onError(error);
      },
    );
}

/** Three base64url segments: a JWT, never an API key (`skiff_…`). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** What {@link resolveCaller} needs besides the request. */
export interface CallerOptions extends SessionCallerOptions {
  /** The member standing's join (see {@link StandingJoin}). */
  standingJoin: StandingJoin;
  /** Told when the background write of a key's last use fails (default: ignored). */
  onError?: (error: unknown) => void;
  /** The key's statement as a named prepared statement, as compiled reads are (SKIFF_PREPARED_READS). */
  prepare?: boolean;
}

/**
 * Resolves the caller of a request from its headers. An API key header, when present, decides alone (an
 * invalid key gives null even with a valid cookie). API key: one SQL query with the member's standing (the
 * last-used write happens in the background; its failures go to `options.onError`); session: one statement for a
 * cookie this process saw better-auth verify, else better-auth's session lookup and one statement
 * (session-caller.ts).
 * @returns the caller, or null when there are no valid credentials (→ 401).
 */
export async function resolveCaller(
  auth: Auth,
  knex: Knex,
  headers: Headers,
  options: CallerOptions,
): Promise<Caller | null> {
  const key = apiKeyFromHeaders(headers);
  if (key && JWT_SHAPE.test(key)) return callerFromJwt(auth, knex, key, options);
  if (key) return callerFromApiKey(knex, key, options);
  return callerFromSession(auth, knex, headers, options);
}
