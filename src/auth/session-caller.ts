/**
 * Callers signed in as a user — better-auth's session cookie, or a user JWT — at most one statement each
 * (authentication ≤ 1 statement per request, however the caller signs in — the dashboard's way included). The
 * first request of a cookie in this process goes through better-auth (`getSession`: the cookie's signature, the
 * session row, its refresh), then one statement reads the user's memberships with their standing; the cookie is then
 * remembered — by a hash of the exact cookie text better-auth verified, never trusted alone:
 * - a compiled read confirms it inside its own statement ({@link sessionConfirmingStatement}: the session row by
 *   token, unexpired and not due for refresh, and the user's member rows, compared as one fingerprint text);
 * - any other operation resolves it in one statement ({@link callerFromSession}: session, user and memberships).
 * A session signed out, expired, due for better-auth's refresh (`updateAge`), switched to another organization, or a
 * membership, role, grant or plan changed since, fails the check: better-auth is asked again. A user JWT is verified
 * by better-auth once per process and remembered until it expires ({@link callerFromJwt}). Spec: "Organization and
 * access resources" (a session acts on its active organization, else the user's first membership).
 */
import { hash } from "node:crypto";
import type { Knex } from "knex";
import type { Auth } from "./auth.ts";
import type { Caller, HeaderReader, StandingColumns } from "./caller.ts";
import { toRole } from "./caller.ts";
import { hashSessionToken } from "./session-token-hashing.ts";

/** One membership of a session's user as {@link sessionSql} reads it: the organization and the member's standing. */
export type SessionMembership = StandingColumns & { organizationId: string };

/** What this process needs of an auth instance's session settings (read once from better-auth's context). */
interface SessionSettings {
  /** The session cookie's name as better-auth reads it (`skiff.session_token`, `__Secure-` in front over https). */
  cookieName: string;
  /**
   * Seconds before its expiry from which a session is due for better-auth's refresh: `expiresIn − updateAge`
   * (better-auth's `getSession` extends a session once `expiresAt − expiresIn + updateAge ≤ now`).
   */
  refreshWithinSeconds: number;
}

/** A session cookie this process saw verified by better-auth, with the caller it resolved to then. */
export interface RememberedSession {
  caller: Caller;
  /** The session's `sessions.token`: the hash of its token (session-token-hashing.ts), not a credential. */
  tokenHash: string;
  /** The session row and the user's member rows as one text ({@link sessionFingerprintSql}) when resolved. */
  fingerprint: string;
  settings: SessionSettings;
}

/**
 * Per auth instance: its settings, the cookies remembered (hash of `name=value` → session, oldest first) and its
 * {@link sessionSql} (built on first use: one membership SQL per process).
 */
interface SessionMemory {
  settings: SessionSettings;
  sessions: Map<string, RememberedSession>;
  sql?: string;
  /** User JWTs better-auth verified (hash of the token → its subject and expiry, seconds since the epoch). */
  jwts: Map<string, { sub: string; exp: number }>;
  /** {@link userSql}, built on first use. */
  userSql?: string;
}
const memories = new WeakMap<Auth, SessionMemory>();
const MAX_REMEMBERED = 10_000;

/** The memory of `auth`, its settings read from better-auth's context on first use. */
async function memoryOf(auth: Auth): Promise<SessionMemory> {
  let memory = memories.get(auth);
  if (!memory) {
    const context = await auth.$context;
    const { expiresIn, updateAge } = context.sessionConfig;
    memory = {
      settings: {
        cookieName: context.authCookies.sessionToken.name,
        refreshWithinSeconds: Math.max(0, expiresIn - updateAge),
      },
      sessions: new Map(),
      jwts: new Map(),
    };
    memories.set(auth, memory);
  }
  return memory;
}

/**
 * The `name=value` text of the one session cookie `cookie` (a Cookie header) holds under `name`, and its token;
 * null when there is none, or more than one (a header naming the cookie twice is left to better-auth alone).
 */
function sessionCookie(cookie: string | null, name: string): { text: string; token: string } | null {
  if (!cookie?.includes(name)) return null;
  let found: string | null = null;
  for (const part of cookie.split(";")) {
    const pair = part.trim();
    if (!pair.startsWith(`${name}=`)) continue;
    if (found !== null) return null;
    found = pair;
  }
  if (found === null) return null;
  let value: string;
  try {
    value = decodeURIComponent(found.slice(name.length + 1));
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  return dot < 1 ? null : { text: found, token: value.slice(0, dot) };
}

/** The key of a credential's text (a cookie's `name=value`, a JWT) in the memory: its SHA-256. */
function credentialKey(text: string): string {
  return hash("sha256", text, "base64url");
}

/**
 * A user's memberships as SQL, handed in by the access module (which owns `members`; src/auth is below the modules).
 * Both take SQL expressions.
 */
export interface UserMembershipsSql {
  /**
   * Text equal for two reads exactly when the user's member rows are: each member's id, organization, role and
   * standing version (which grows with any change to its grants, plan or the user's e-mail).
   */
  fingerprint(userIdSql: string): string;
  /**
   * A `json` array of the user's {@link SessionMembership}s, the one in organization `activeOrganizationSql` first,
   * then by the membership's age (`'[]'` for none).
   */
  standings(userIdSql: string, activeOrganizationSql: string): string;
}

/** The session row `session` and its user's member rows as one text: equal texts, equal callers. */
function sessionFingerprintSql(memberships: UserMembershipsSql, session: string): string {
  return `row(${session}.id, ${session}.user_id, ${session}.active_organization_id,
    ${memberships.fingerprint(`${session}.user_id`)})::text`;
}

/**
 * The statement resolving a session (`?`: its stored token hash) to its caller: the session (unexpired), its user,
 * every membership with its standing, the one the session acts on first (its active organization, else the
 * earliest), the fingerprint, and whether the session is due for better-auth's refresh.
 */
function sessionSql(memberships: UserMembershipsSql, settings: SessionSettings): string {
  return `select s.id as "sessionId", s.user_id as "userId", u.email as "email",
    ${sessionFingerprintSql(memberships, "s")} as "fingerprint",
    s.expires_at <= now() + make_interval(secs => ${settings.refreshWithinSeconds}) as "due",
    ${memberships.standings("s.user_id", "s.active_organization_id")} as "memberships"
  from sessions s join users u on u.id = s.user_id
  where s.token = ? and s.expires_at > now()`;
}

/** A row of {@link sessionSql}. */
interface SessionRow {
  sessionId: string;
  userId: string;
  email: string;
  fingerprint: string;
  due: boolean;
  memberships: SessionMembership[];
}

/**
 * The caller a user's row describes (a session's with its `sessionId`, a JWT's without): acting on its first
 * membership (none: no organization).
 */
function userCaller(row: Pick<SessionRow, "userId" | "email" | "memberships">, sessionId?: string): Caller {
  const first = row.memberships[0];
  return {
    userId: row.userId,
    email: row.email,
    organizationId: first?.organizationId ?? null,
    role: toRole(first?.role),
    memberId: first?.memberId ?? null,
    via: "session",
    ...(sessionId ? { sessionId } : {}),
    memberships: row.memberships,
  };
}

/** What {@link callerFromSession} needs besides the request. */
export interface SessionCallerOptions {
  /** The access module's membership SQL. */
  memberships: UserMembershipsSql;
  /**
   * False: no cookie or user JWT is remembered, every request goes through better-auth (an instance whose reads run through the executor alone).
   */
  rememberSessions?: boolean;
}

/**
 * Resolves the session cookie of `headers` to its caller: in one statement when this process saw better-auth verify
 * that very cookie before and the session is not due for refresh; else through better-auth's `getSession` (which
 * verifies the signature and refreshes the session) and one statement more, and the cookie is remembered.
 * @returns the caller, or null when there is no valid session (→ 401).
 */
export async function callerFromSession(
  auth: Auth,
  knex: Knex,
  headers: Headers,
  options: SessionCallerOptions,
): Promise<Caller | null> {
  const memory = await memoryOf(auth);
  const remembers = options.rememberSessions !== false;
  const cookie = remembers ? sessionCookie(headers.get("cookie"), memory.settings.cookieName) : null;
  const key = cookie && credentialKey(cookie.text);
  memory.sql ??= sessionSql(options.memberships, memory.settings);
  const { sql } = memory;
  const known = key ? memory.sessions.get(key) : undefined;
  if (key && known) {
    const row = await sessionRow(knex, sql, known.tokenHash);
    // Unchanged: the same entry stays (what was compiled for it stays valid), now the most recently used.
    if (row && !row.due && row.fingerprint === known.fingerprint) {
      memory.sessions.delete(key);
      memory.sessions.set(key, known);
      return known.caller;
    }
    if (row && !row.due) return remember(memory, key, known.tokenHash, row);
    memory.sessions.delete(key);
  }
  const session = await auth.api.getSession({ headers }).catch((error: unknown) => outageOr(knex, error));
  if (!session) return null;
  const tokenHash = hashSessionToken(session.session.token);
  const row = await sessionRow(knex, sql, tokenHash);
  if (!row) return null;
  // Remembered only for the cookie better-auth itself read (its token is the session's).
  if (key && cookie?.token === session.session.token && !row.due) return remember(memory, key, tokenHash, row);
  return userCaller(row, row.sessionId);
}

/**
 * What a failed better-auth call comes to: better-auth answers its own database errors as an opaque 500
 * (`FAILED_TO_GET_SESSION`, the cause left out) or, verifying a JWT, as no payload at all, so when the database does
 * not answer a trivial statement either, that outage is thrown instead (the transport answers it 503 with
 * Retry-After, as for every other caller); else `error` is thrown as it is, or, when it is null (a refusal, not an
 * error), null is returned: no caller.
 */
async function outageOr(knex: Knex, error: unknown): Promise<null> {
  const probe = await knex.raw("select 1").then(
    () => null,
    (outage: unknown) => outage,
  );
  if (probe ?? error) throw probe ?? error;
  return null;
}

/** The {@link SessionRow} of the session stored with token hash `tokenHash`, or undefined. */
async function sessionRow(knex: Knex, sql: string, tokenHash: string): Promise<SessionRow | undefined> {
  const result: { rows: SessionRow[] } = await knex.raw(sql, [tokenHash]);
  return result.rows[0];
}

/** Remembers (or renews) cookie `key` as `row`'s caller, the oldest entry going past the bound. @returns the caller. */
function remember(memory: SessionMemory, key: string, tokenHash: string, row: SessionRow): Caller {
  const caller = userCaller(row, row.sessionId);
  memory.sessions.delete(key);
  memory.sessions.set(key, { caller, tokenHash, fingerprint: row.fingerprint, settings: memory.settings });
  if (memory.sessions.size > MAX_REMEMBERED) memory.sessions.delete(memory.sessions.keys().next().value as string);
  return caller;
}

/**
 * The remembered session of the cookie in `headers` for `auth`, or null when this process has not seen better-auth
 * verify that cookie (or has forgotten it). Its caller must be confirmed ({@link sessionConfirmingStatement}).
 */
export function rememberedSession(auth: Auth, headers: HeaderReader): RememberedSession | null {
  const memory = memories.get(auth);
  if (!memory) return null;
  const cookie = sessionCookie(headers.get("cookie"), memory.settings.cookieName);
  return cookie ? (memory.sessions.get(credentialKey(cookie.text)) ?? null) : null;
}

/**
 * Wraps a read statement (`sql` with `?` placeholders, one row) so that it also confirms the remembered session:
 * the result has the session's `callerFingerprint` and, only when it is unchanged, the read's own columns (else they
 * are null: PostgreSQL may still evaluate the read, whose values are dropped by the join's filter). No row: the
 * session is gone, expired or due for refresh.
 */
export function sessionConfirmingStatement(
  check: RememberedSession,
  options: SessionCallerOptions,
  sql: string,
  bindings: readonly unknown[],
): { sql: string; bindings: unknown[] } {
  return {
    sql: `with caller as materialized (select ${sessionFingerprintSql(options.memberships, "s")} as "fingerprint"
  from sessions s
  where s.token = ? and s.expires_at > now() + make_interval(secs => ${check.settings.refreshWithinSeconds}))
select c."fingerprint" as "callerFingerprint", d.*
from caller c left join lateral (select * from (${sql}) d0 where c."fingerprint" = ?) d on true`,
    bindings: [check.tokenHash, ...bindings, check.fingerprint],
  };
}

/** The statement of a user (`?`: its id) as a user JWT acts: the user and every membership, the oldest first. */
function userSql(memberships: UserMembershipsSql): string {
  return `select u.id as "userId", u.email as "email", ${memberships.standings("u.id", "null::text")} as "memberships"
  from users u where u.id = ?`;
}

/**
 * A user JWT (better-auth's JWT plugin: issued at `GET /api/auth/token` for a session, signed with the keys published
 * at `/api/auth/jwks`, 15 minutes): verified by better-auth (signature, issuer, audience, expiry) the first time this
 * process sees it, then remembered until its `exp` — its signature cannot change, and Skiff configures no key
 * rotation — so a request costs one statement: the user and every membership with its standing, the first one as the
 * default (no active organization), as the session it was issued for acts. null when invalid, expired, or the user
 * is gone; throws the database's error when it does not answer (a token not yet verified included: 503, not 401).
 */
export async function callerFromJwt(
  auth: Auth,
  knex: Knex,
  token: string,
  options: SessionCallerOptions,
): Promise<Caller | null> {
  const memory = await memoryOf(auth);
  const key = credentialKey(token);
  let known = memory.jwts.get(key);
  if (known && known.exp * 1000 <= Date.now()) {
    memory.jwts.delete(key);
    known = undefined;
  }
  if (!known) {
    const payload: { sub?: unknown; exp?: unknown } | undefined = await auth.api.verifyJWT({ body: { token } }).then(
      (verified) => verified?.payload ?? undefined,
      () => undefined,
    );
    // better-auth answers every failure (its key set unreadable included) as no payload, and a throw is taken as
    // one: refused only when the database answers, else the outage is what the caller meets (503, as for a session
    // or key).
    if (typeof payload?.sub !== "string" || !payload.sub) return outageOr(knex, null);
    known = { sub: payload.sub, exp: typeof payload.exp === "number" ? payload.exp : 0 };
    if (options.rememberSessions !== false && known.exp * 1000 > Date.now()) {
      memory.jwts.set(key, known);
      if (memory.jwts.size > MAX_REMEMBERED) memory.jwts.delete(memory.jwts.keys().next().value as string);
    }
  }
  memory.userSql ??= userSql(options.memberships);
  const result: { rows: Array<Pick<SessionRow, "userId" | "email" | "memberships">> } = await knex.raw(memory.userSql, [
    known.sub,
  ]);
  const row = result.rows[0];
  return row ? userCaller(row) : null;
}
