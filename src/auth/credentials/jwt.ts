/**
 * The user JWT strategy (better-auth's JWT plugin: issued at `GET /api/auth/token` for a session, signed with the
 * keys published at `/api/auth/jwks`, 15 minutes), sent as `Authorization: Bearer <jwt>` (or `x-api-key`): verified
 * by better-auth (signature, issuer, audience, expiry) the first time this process sees it, then remembered until
 * its `exp` — its signature cannot change, and Skiff configures no key rotation — so a request costs one statement:
 * the user and every membership with its standing, the first one as the default (no active organization), as the
 * session it was issued for acts. A JWT is never confirmed inside a read: every request runs that one statement.
 */
import type { Knex } from "knex";
import type { Auth } from "../auth.ts";
import type { Caller } from "../caller.ts";
import { outageOr, remember, type UserMembershipsSql } from "./credential.ts";
import { credentialKey, type SessionOptions, type UserRow, userCaller } from "./session.ts";

/** Per auth instance: the JWTs better-auth verified (hash of the token → its subject and expiry, seconds since the epoch). */
interface JwtMemory {
  jwts: Map<string, { sub: string; exp: number }>;
  /** {@link userSql}, built on first use. */
  userSql?: string;
}
const memories = new WeakMap<Auth, JwtMemory>();

/** The statement of a user (`?`: its id) as a user JWT acts: the user and every membership, the oldest first. */
function userSql(memberships: UserMembershipsSql): string {
  return `select u.id as "userId", u.email as "email", ${memberships.standings("u.id", "null::text")} as "memberships"
  from users u where u.id = ?`;
}

/**
 * Resolves user JWT `token` to its caller (see the file's docstring). null when invalid, expired, or the user is
 * gone; throws the database's error when it does not answer (a token not yet verified included: 503, not 401).
 */
export async function callerFromJwt(
  auth: Auth,
  knex: Knex,
  token: string,
  options: SessionOptions,
): Promise<Caller | null> {
  let memory = memories.get(auth);
  if (!memory) {
    memory = { jwts: new Map() };
    memories.set(auth, memory);
  }
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
    if (options.rememberSessions !== false && known.exp * 1000 > Date.now()) remember(memory.jwts, key, known);
  }
  memory.userSql ??= userSql(options.memberships);
  const result: { rows: UserRow[] } = await knex.raw(memory.userSql, [known.sub]);
  const row = result.rows[0];
  return row ? userCaller(row) : null;
}
