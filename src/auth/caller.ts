/**
 * Who is calling: from an account API key (`Authorization: Bearer <key>` or `x-api-key: <key>`, equivalent)
 * or from the better-auth session cookie. Spec: "Authentication / Site import API" and
 * "Organization and access resources" (a key is bound to the organization active at its creation and carries
 * its creator's current role there).
 */
import { defaultKeyHasher } from "@better-auth/api-key";
import type { Knex } from "knex";
import type { Auth } from "./auth.ts";

/** A role of a member in an organization. */
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
}

/** Hash under which an API key is stored (`api_keys.key`): SHA-256, base64url without padding, as the plugin does. */
export function hashApiKey(key: string): Promise<string> {
  return defaultKeyHasher(key);
}

/** The API key sent with `headers`, or null; `Authorization: Bearer` wins over `x-api-key`. */
export function apiKeyFromHeaders(headers: Headers): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (match?.[1]) return match[1];
  return headers.get("x-api-key")?.trim() || null;
}

/** Highest of the roles stored in `members.role` (better-auth allows a comma-separated list). */
export function toRole(stored: string | null | undefined): Role | null {
  const roles = (stored ?? "").split(",").map((r) => r.trim());
  return (["owner", "admin", "member"] as const).find((r) => roles.includes(r)) ?? null;
}

interface KeyRow {
  id: string;
  userId: string;
  email: string;
  organizationId: string;
  memberId: string;
  role: string;
}

/**
 * Resolves the key in one query; null when unknown, disabled, expired, or when its creator is no longer a
 * member of the key's organization (spec: then callers receive 401).
 */
async function callerFromApiKey(knex: Knex, key: string): Promise<Caller | null> {
  const row: KeyRow | undefined = await knex("api_keys as k")
    .join("users as u", "u.id", "k.reference_id")
    .join("members as m", (j) => j.on("m.user_id", "k.reference_id").andOn("m.organization_id", "k.organization_id"))
    .where("k.key", await hashApiKey(key))
    .andWhere("k.enabled", true)
    .andWhere((w) => w.whereNull("k.expires_at").orWhere("k.expires_at", ">", knex.fn.now()))
    .first("k.id", "k.reference_id as user_id", "u.email", "k.organization_id", "m.id as member_id", "m.role");
  if (!row) return null;
  const role = toRole(row.role);
  if (!role) return null;
  await touchApiKey(knex, row.id);
  return {
    userId: row.userId,
    email: row.email,
    organizationId: row.organizationId,
    role,
    memberId: row.memberId,
    via: "apiKey",
    apiKeyId: row.id,
  };
}

/** How often `api_keys.last_request` ("last used") is written for a busy key: at most once a minute. */
const LAST_USED_RESOLUTION_SECONDS = 60;

/** Records that key `id` was just used (`last_request`), skipping the write when it was recorded < 1 minute ago. */
async function touchApiKey(knex: Knex, id: string): Promise<void> {
  await knex("api_keys")
    .where({ id })
    .andWhere((w) =>
      w
        .whereNull("last_request")
        .orWhere("last_request", "<", knex.raw("now() - make_interval(secs => ?)", [LAST_USED_RESOLUTION_SECONDS])),
    )
    .update({ last_request: knex.fn.now() });
}

/** The session's active organization when the user still belongs to it, else the user's first membership. */
async function callerFromSession(auth: Auth, knex: Knex, headers: Headers): Promise<Caller | null> {
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const active = session.session.activeOrganizationId ?? null;
  const member: { id: string; organizationId: string; role: string } | undefined = await knex("members")
    .where("user_id", session.user.id)
    .orderByRaw("(organization_id = ?) desc, created_at, id", [active ?? ""])
    .first("id", "organization_id", "role");
  return {
    userId: session.user.id,
    email: session.user.email,
    organizationId: member?.organizationId ?? null,
    role: toRole(member?.role),
    memberId: member?.id ?? null,
    via: "session",
    sessionId: session.session.id,
  };
}

/** Three base64url segments: a JWT, never an API key (`skiff_…`). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * A user JWT (better-auth's JWT plugin: issued at `GET /api/auth/token` for a session, signed with the keys
 * published at `/api/auth/jwks`, 15 minutes): verified (signature, issuer, audience, expiry), it acts like the
 * session it was issued for — every organization of the user, the first one as the default. null when invalid.
 */
async function callerFromJwt(auth: Auth, knex: Knex, token: string): Promise<Caller | null> {
  let sub: string | undefined;
  try {
    const verified = await auth.api.verifyJWT({ body: { token } });
    sub = verified?.payload?.sub;
  } catch {
    return null;
  }
  if (!sub) return null;
  const user: { id: string; email: string } | undefined = await knex("users").where({ id: sub }).first("id", "email");
  if (!user) return null;
  const member: { id: string; organizationId: string; role: string } | undefined = await knex("members")
    .where("user_id", user.id)
    .orderBy(["created_at", "id"])
    .first("id", "organization_id", "role");
  return {
    userId: user.id,
    email: user.email,
    organizationId: member?.organizationId ?? null,
    role: toRole(member?.role),
    memberId: member?.id ?? null,
    via: "session",
  };
}

/**
 * Resolves the caller of a request from its headers. An API key header, when present, decides alone (an
 * invalid key gives null even with a valid cookie). API key: one SQL query; session: better-auth's session
 * lookup plus one query on `members`.
 * @returns the caller, or null when there are no valid credentials (→ 401).
 */
export async function resolveCaller(auth: Auth, knex: Knex, headers: Headers): Promise<Caller | null> {
  const key = apiKeyFromHeaders(headers);
  if (key && JWT_SHAPE.test(key)) return callerFromJwt(auth, knex, key);
  if (key) return callerFromApiKey(knex, key);
  return callerFromSession(auth, knex, headers);
}
