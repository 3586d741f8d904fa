/**
 * The account API key strategy (spec: Authentication → Site import API; Organization and access resources): read
 * from `Authorization: Bearer <key>` or `x-api-key: <key>` (equivalent; never a JWT's shape), resolved in one
 * statement — key, creator, membership, plan features and grants — remembered per process by the key's hash, and
 * confirmed inside the statement that reads for the request (the key and the member row alone). A key is bound to
 * the organization active at its creation and carries its creator's current role there.
 */
import { hash } from "node:crypto";
import type { Knex } from "knex";
import { type StandingColumns, standingOf } from "../access/standing.ts";
import type { Caller } from "../caller.ts";
import {
  bearerCredential,
  type HeaderReader,
  isJwt,
  knownCaller,
  type RememberedCaller,
  remember,
  rememberedCallerOf,
  type StandingJoin,
  standingFingerprintSql,
} from "./credential.ts";

/**
 * Hash under which an API key is stored (`api_keys.key`): SHA-256 of its UTF-8 bytes, base64url without padding —
 * the api-key plugin's `defaultKeyHasher`, computed with node:crypto in the request's own thread (the plugin's
 * WebCrypto digest is a thread-pool round trip per request; test/auth/auth.test.ts checks both agree).
 */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "base64url");
}

/** The API key of `headers` (Bearer or x-api-key, not a JWT's shape), or null. */
export function apiKeyOf(headers: HeaderReader): string | null {
  const key = bearerCredential(headers);
  return key && !isJwt(key) ? key : null;
}

/** What the API key strategy needs besides the key. */
export interface ApiKeyOptions {
  /** The member standing's join (see {@link StandingJoin}). */
  standingJoin: StandingJoin;
  /** Told when the background write of a key's last use fails (default: ignored). */
  onError?: (error: unknown) => void;
  /** The key's statement as a named prepared statement, as compiled reads are (SKIFF_PREPARED_READS). */
  prepare?: boolean;
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
 * (authentication costs one SQL statement), the standing joined with `standingJoin`. Unknown, disabled and expired
 * keys and keys whose creator left the organization give no row. With `check`, the statement that confirms a
 * remembered caller: the key and the member row alone (`id`, `stale`, `fingerprint`), the same fingerprint without
 * the creator, the plan or the grants.
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

/** A key this process resolved: its caller (copied for each request) and the key row's fingerprint then. */
interface KnownKey {
  caller: Caller;
  /** {@link hashApiKey} of the key presented. */
  keyHash: string;
  fingerprint: string;
}

/** Keys remembered per process (hash → caller); the oldest entries go first past the bound. */
const remembered = new Map<string, KnownKey>();

/**
 * Resolves `key` in one statement; null when unknown, disabled, expired, or when its creator is no longer a
 * member of the key's organization, or holds a role that is none of Skiff's (spec: then callers receive 401). The
 * caller carries its standing (`access`: plan features and grants) so that the request's access scope needs no
 * second statement. The key's last use is recorded in the background when due (failures to `options.onError`).
 */
export async function callerFromApiKey(knex: Knex, key: string, options: ApiKeyOptions): Promise<Caller | null> {
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
  remember(remembered, keyHash, { caller, keyHash, fingerprint: row.fingerprint });
  return { ...caller };
}

/** The caller a key's row describes; null when the stored role is none of Skiff's (→ 401). */
function callerOfRow(row: KeyRow): Caller | null {
  const access = standingOf(row.organizationId, row);
  if (!access) return null;
  return {
    userId: row.userId,
    email: row.email,
    organizationId: row.organizationId,
    role: access.role,
    memberId: row.memberId,
    via: "apiKey",
    apiKeyId: row.id,
    access,
  };
}

/**
 * The caller this process resolved before from the API key in `headers`, to be confirmed in the statement that
 * reads for the request (the key deleted, disabled or expired, or a standing changed since — role, grants, plan,
 * membership — fails the confirmation, and the request is then authenticated the ordinary way before anything is
 * answered, so "deleting a key takes effect at once", spec: Organization and access resources, holds on every
 * instance); null when there is no key or it was not resolved here before.
 */
export function rememberedApiKey(knex: Knex, headers: HeaderReader, options: ApiKeyOptions): RememberedCaller | null {
  const key = apiKeyOf(headers);
  const known = key ? remembered.get(hashApiKey(key)) : undefined;
  if (!known) return null;
  return rememberedCallerOf({
    ...knownCaller(known),
    check: {
      sql: `with caller as materialized (${apiKeySqlOf(options.standingJoin).check})`,
      bindings: [known.keyHash],
    },
    columns: `, c."stale" as "callerStale", c."id" as "callerKeyId"`,
    accept(row) {
      if (row.callerStale) touchApiKey(knex, row.callerKeyId as string, options.onError ?? (() => {}));
      return true;
    },
  });
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
