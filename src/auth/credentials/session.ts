/**
 * The session cookie strategy: better-auth's session cookie (`skiff.session_token`, `__Secure-` in front over
 * https), at most one statement per request (authentication ≤ 1 statement per request, the dashboard's way
 * included). The first request of a cookie in this process goes through better-auth (`getSession`: the cookie's
 * signature, the session row, its refresh), then one statement reads the user's memberships with their standing; the
 * cookie is then remembered — by a hash of the exact cookie text better-auth verified, never trusted alone:
 * - a compiled read confirms it inside its own statement ({@link rememberedSession}: the session row by token,
 *   unexpired and not due for refresh, and the user's member rows, compared as one fingerprint text);
 * - any other operation resolves it in one statement ({@link callerFromSession}: session, user and memberships).
 * A session signed out, expired, due for better-auth's refresh (`updateAge`), switched to another organization, or a
 * membership, role, grant or plan changed since, fails the check: better-auth is asked again. Spec: "Organization
 * and access resources" (a session acts on its active organization, else the user's first membership).
 */
import { hash } from "node:crypto";
import type { Knex } from "knex";
import { type OrgAccess, type StandingColumns, standingOf, toRole } from "../access/standing.ts";
import type { Auth } from "../auth.ts";
import type { Caller } from "../caller.ts";
import { hashSessionToken } from "../session-token-hashing.ts";
import {
  type HeaderReader,
  knownCaller,
  outageOr,
  type RememberedCaller,
  remember,
  rememberedCallerOf,
  type UserMembershipsSql,
} from "./credential.ts";

/** One membership of a signed-in user as the session statements read it: the organization and the member's standing. */
type Membership = StandingColumns & { organizationId: string };

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
interface KnownSession {
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
  sessions: Map<string, KnownSession>;
  sql?: string;
}
const memories = new WeakMap<Auth, SessionMemory>();

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

/**
 * The session token of the session cookie in `cookie` (a Cookie header), under the name `auth` reads it, or null (no
 * such cookie, or two). Its signature is not checked: for a caller that acts on the session of the token alone.
 */
export async function sessionTokenOf(auth: Auth, cookie: string | null): Promise<string | null> {
  return sessionCookie(cookie, (await memoryOf(auth)).settings.cookieName)?.token ?? null;
}

/** The key of a credential's text (a cookie's `name=value`, a JWT) in a memory: its SHA-256. */
export function credentialKey(text: string): string {
  return hash("sha256", text, "base64url");
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
  memberships: Membership[];
}

/** A signed-in user as the session and user JWT statements read it: the user and every membership. */
export type UserRow = Pick<SessionRow, "userId" | "email" | "memberships">;

/**
 * The caller a user's row describes (a session's with its `sessionId`, a user JWT's without): acting on its first
 * membership (none: no organization).
 */
export function userCaller(row: UserRow, sessionId?: string): Caller {
  const first = row.memberships[0];
  return {
    userId: row.userId,
    email: row.email,
    organizationId: first?.organizationId ?? null,
    role: toRole(first?.role),
    memberId: first?.memberId ?? null,
    via: "session",
    ...(sessionId ? { sessionId } : {}),
    memberships: row.memberships.flatMap((m): OrgAccess[] => {
      const one = standingOf(m.organizationId, m);
      return one ? [one] : [];
    }),
  };
}

/** What {@link callerFromSession} needs besides the request. */
export interface SessionOptions {
  /** The access module's membership SQL. */
  memberships: UserMembershipsSql;
  /**
   * False: no cookie or user JWT is remembered, every request goes through better-auth (an
   * instance whose reads run through the executor alone).
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
  options: SessionOptions,
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
      return { ...remember(memory.sessions, key, known).caller };
    }
    if (row && !row.due) return rememberRow(memory, key, known.tokenHash, row);
    memory.sessions.delete(key);
  }
  const session = await auth.api.getSession({ headers }).catch((error: unknown) => outageOr(knex, error));
  if (!session) return null;
  const tokenHash = hashSessionToken(session.session.token);
  const row = await sessionRow(knex, sql, tokenHash);
  if (!row) return null;
  // Remembered only for the cookie better-auth itself read (its token is the session's).
  if (key && cookie?.token === session.session.token && !row.due) return rememberRow(memory, key, tokenHash, row);
  return userCaller(row, row.sessionId);
}

/** The {@link SessionRow} of the session stored with token hash `tokenHash`, or undefined. */
async function sessionRow(knex: Knex, sql: string, tokenHash: string): Promise<SessionRow | undefined> {
  const result: { rows: SessionRow[] } = await knex.raw(sql, [tokenHash]);
  return result.rows[0];
}

/** Remembers (or renews) cookie `key` as `row`'s caller, the oldest entry going past the bound. @returns the caller. */
function rememberRow(memory: SessionMemory, key: string, tokenHash: string, row: SessionRow): Caller {
  const caller = userCaller(row, row.sessionId);
  remember(memory.sessions, key, { caller, tokenHash, fingerprint: row.fingerprint, settings: memory.settings });
  return { ...caller };
}

/**
 * The remembered session of the cookie in `headers` for `auth`, to be confirmed in the statement that reads for the
 * request (the session row by token, unexpired and not due for refresh, and the user's member rows, compared as one
 * fingerprint text; no row: the session is gone, expired or due for refresh); null when this process has not seen
 * better-auth verify that cookie (or has forgotten it).
 */
export function rememberedSession(
  auth: Auth,
  headers: HeaderReader,
  options: Pick<SessionOptions, "memberships">,
): RememberedCaller | null {
  const memory = memories.get(auth);
  if (!memory) return null;
  const cookie = sessionCookie(headers.get("cookie"), memory.settings.cookieName);
  const known = cookie ? memory.sessions.get(credentialKey(cookie.text)) : undefined;
  if (!known) return null;
  return rememberedCallerOf({
    ...knownCaller(known),
    check: {
      sql: `with caller as materialized (select ${sessionFingerprintSql(options.memberships, "s")} as "fingerprint"
  from sessions s
  where s.token = ? and s.expires_at > now() + make_interval(secs => ${known.settings.refreshWithinSeconds}))`,
      bindings: [known.tokenHash],
    },
    columns: "",
  });
}
