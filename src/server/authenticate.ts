/**
 * The transport's one entry into authentication: a request's headers, as the surface it reached accepts
 * credentials, to its {@link Caller} (src/auth/credentials/: session cookie, `Authorization: Bearer <credential>`
 * or `x-api-key: <credential>`; spec: Authentication). Shared by HTTP, WebSocket, REST rows and MCP; each resolves
 * the caller once per request (or per WebSocket connection) and hands it down in the context.
 */

import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance } from "fastify";
import { SESSION_COOKIE } from "../auth/auth.ts";
import type { Caller } from "../auth/caller.ts";
import type { HeaderReader } from "../auth/credentials/credential.ts";
import { type CallerOptions, callerFromAgentToken, resolveCaller } from "../auth/credentials/index.ts";

/** The token of a request's session cookie (for a sign-out that deletes its session itself: auth-routes.ts). */
export { sessionTokenOf } from "../auth/credentials/index.ts";

import { preparesStatements } from "../db/prepared-statements.ts";
import { memberStandingJoinSql, userMembershipsSql } from "../modules/access/index.ts";
import type { AppServices } from "../modules/services.ts";
import { UnauthenticatedError } from "../shared/errors.ts";
import type { Surface } from "../shared/rest-route.ts";
import { RequestRefusal } from "./format-error.ts";

export type { Surface };

/**
 * Converts Node's header object (or a `connection_init` payload's) into WHATWG Headers. A name or value no HTTP
 * header can carry (a control character such as NUL, which only a WebSocket payload or an in-process caller can
 * send) is left out: such a credential is no credential, refused as any invalid one (401 / 4403), never a 500.
 */
export function toHeaders(headers: IncomingHttpHeaders | Record<string, string | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    let appended = 0;
    try {
      if (Array.isArray(value))
        for (const v of value) {
          out.append(name, v);
          appended++;
        }
      else out.set(name, String(value));
    } catch {
      // Headers throws a TypeError on a name or value no header can carry: the header is left out whole (a name
      // that took a value is a valid one to delete).
      if (appended) out.delete(name);
    }
  }
  return out;
}

/**
 * A {@link HeaderReader} over Node's header object without copying it into WHATWG Headers (the remembered-caller
 * lookup of every request): `get` as `Headers` answers it — any case of the name, repeated values joined with ", ".
 */
export function headerView(headers: IncomingHttpHeaders | Record<string, string | undefined>): HeaderReader {
  return {
    get(name) {
      const lower = name.toLowerCase();
      let value = headers[lower];
      if (value === undefined) {
        // Node's own objects have lower-case names; an in-process caller's plain object may not.
        const found = Object.keys(headers).find((key) => key.toLowerCase() === lower);
        value = found === undefined ? undefined : headers[found];
      }
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : String(value);
    },
  };
}

/**
 * Keeps, on every request of `app` (a root-level hook), each `Authorization` header a client repeats: Node keeps the
 * first one only, so a request carrying two would run as the caller of whichever came first. Their values are
 * joined with ", " into `request.headers.authorization`, as Node joins a repeated `x-api-key`; two different
 * credentials are then refused as two credentials in `Authorization` and `x-api-key` are (401, `bearerCredential`
 * in src/auth/credentials/credential.ts), the same one repeated is one credential.
 */
export function joinRepeatedAuthorization(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    const raw = request.raw.rawHeaders;
    const values: string[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === "authorization") values.push(raw[i + 1]!);
    }
    if (values.length > 1) request.raw.headers.authorization = values.join(", ");
  });
}

/**
 * Resolves the caller of a request, or null when credentials are missing or invalid. The `agent` surface
 * accepts agent tokens only (counted against the token's rate limit); every other surface looks keys up among account
 * API keys only, so an agent token fails there like any unknown key (spec: Authentication → Agent API, rule 3).
 * @throws RateLimitedError on the `agent` surface when the token is over its rate limit.
 */
export async function authenticate(
  services: AppServices,
  headers: IncomingHttpHeaders | Record<string, string | undefined>,
  surface: Surface,
): Promise<Caller | null> {
  if (surface === "agent") return authenticateAgent(services, toHeaders(headers));
  return resolveCaller(services.auth, services.knex, toHeaders(headers), callerOptions(services));
}

/**
 * The refusal of an agent API request whose token is over its rate limit: a 401 (`UNAUTHENTICATED`) that also names
 * the token's caller, so that the refused call's audit entry names who was refused (docs/audit-log.md). The caller
 * is never answered: an error's answer holds only its message and code.
 */
export class RateLimitedError extends UnauthenticatedError {
  /** The token's caller (its owner, organization and token id). */
  readonly caller: Caller;

  constructor(message: string, caller: Caller) {
    super(message);
    this.caller = caller;
  }
}

/**
 * The caller of an agent API request, or null when it carries no valid agent token (missing, revoked, expired, of
 * another kind, membership removed). The request counts against the token's rate limit unless `counted` is false
 * (an MCP message that is not a tool call: only tool calls are requests of the agent API).
 * @throws RateLimitedError when a counted request finds the token over `SKIFF_AGENT_RATE_LIMIT` requests in the
 * current minute.
 */
export async function authenticateAgent(
  services: AppServices,
  headers: Headers,
  counted = true,
): Promise<Caller | null> {
  const found = await callerFromAgentToken(services.knex, headers, callerOptions(services), counted);
  if (!found) return null;
  if (found.rateLimited) {
    throw new RateLimitedError(
      `Rate limit exceeded: ${services.config.SKIFF_AGENT_RATE_LIMIT} requests per minute per agent token`,
      found.caller,
    );
  }
  return found.caller;
}

/**
 * How the transport resolves credentials: the access module's standing join (API keys, agent tokens) and membership
 * SQL (sessions, user JWTs), whether session cookies are remembered (not when reads run through the executor alone:
 * `services.readMode`), statement preparation, error logging, the agent tokens' rate limit.
 */
export function callerOptions(services: AppServices): CallerOptions {
  return {
    standingJoin: memberStandingJoinSql,
    memberships: userMembershipsSql,
    rememberSessions: services.readMode === "compiled",
    onError: (error) => services.log.warn({ err: error }, "could not record the API key's last use"),
    prepare: preparesStatements(services.config),
    perMinute: services.config.SKIFF_AGENT_RATE_LIMIT,
  };
}

/** The 401 of credentials that were presented but do not verify (unknown, revoked or expired), on /graphql. */
export function invalidCredentialsError(): UnauthenticatedError {
  return new UnauthenticatedError("Invalid credentials: the API key or session is unknown, revoked or expired");
}

/** The 401 of a request on `surface` without valid credentials: /graphql's, or the REST rows' (any other surface). */
export function refusalFor(surface: Surface): UnauthenticatedError {
  return surface === "graphql" ? invalidCredentialsError() : new UnauthenticatedError("Missing or invalid credentials");
}

/** Matches a better-auth session cookie (`skiff.session_token`, or `__Secure-skiff.session_token` over https). */
const SESSION_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${SESSION_COOKIE.replace(".", "\\.")}=`);

/**
 * True when the request presents a credential of any kind: an `Authorization` header, an `x-api-key` header
 * or the session cookie. A presented credential that does not verify answers 401 on /graphql whatever the
 * operation, while a request presenting none stays anonymous (public fields, `{ __typename }`).
 */
export function presentsCredentials(headers: IncomingHttpHeaders | Record<string, string | undefined>): boolean {
  const value = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(",") : (v ?? "");
  };
  return (
    value("authorization").trim() !== "" ||
    value("x-api-key").trim() !== "" ||
    SESSION_COOKIE_PATTERN.test(value("cookie"))
  );
}

/** Methods that change nothing (RFC 9110 §9.2.1), never refused for their `Origin`. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses, on every route of `app` (a root-level hook) but better-auth's `/api/auth/*` (which checks its own), a
 * request that only the session cookie authenticates (no `Authorization`, no `x-api-key`), with a method other than
 * GET, HEAD and OPTIONS, whose `Origin` is not one of `trusted` (the sign-in's: SKIFF_BASE_URL's origin,
 * SKIFF_TRUSTED_ORIGINS, the loopback defaults; `trustedOriginsOf` in src/auth/auth.ts): 403 `INVALID_ORIGIN`, the
 * sign-in API's code, before its body is read. A defence in depth against cross-site request forgery beside the
 * cookie's `SameSite=Lax`; a request without `Origin` (no browser sends a cross-site POST without one) and a
 * header-authenticated one are not concerned (docs/sign-in.md).
 */
export function refuseUntrustedOrigins(app: FastifyInstance, trusted: ReadonlySet<string>): void {
  app.addHook("onRequest", async (request) => {
    const headers = request.headers;
    const origin = headers.origin;
    if (origin === undefined || SAFE_METHODS.has(request.method) || trusted.has(origin)) return;
    if (request.url.startsWith("/api/auth/")) return;
    const present = (name: string) => (headers[name] ?? "").toString().trim() !== "";
    if (present("authorization") || present("x-api-key")) return;
    if (!SESSION_COOKIE_PATTERN.test(headers.cookie ?? "")) return;
    throw new RequestRefusal(
      403,
      "INVALID_ORIGIN",
      "Invalid origin: a request authenticated by the session cookie must come from a trusted origin (SKIFF_BASE_URL, SKIFF_TRUSTED_ORIGINS)",
    );
  });
}
