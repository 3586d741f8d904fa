/**
 * Who is calling, decided in one place: which credential strategy of this folder a request's headers select, by the
 * surface they reach (spec: Authentication; Agent API rule 3). The agent API accepts agent tokens only
 * (agent-token.ts); every other surface accepts an account API key (api-key.ts) or a user JWT (jwt.ts) as a bearer
 * credential — which, when present, decides alone — else the session cookie (session.ts). Only this folder turns
 * credentials into a {@link Caller} (test/architecture/credentials.unit.test.ts); the transport calls it once per request
 * (src/server/authenticate.ts) and hands the caller down.
 */
import type { Knex } from "knex";
import type { Surface } from "../../shared/rest-route.ts";
import type { Auth } from "../auth.ts";
import type { Caller } from "../caller.ts";
import { type AgentTokenOptions, rememberedAgentToken } from "./agent-token.ts";
import { type ApiKeyOptions, callerFromApiKey, rememberedApiKey } from "./api-key.ts";
import { bearerCredential, type HeaderReader, isJwt, type RememberedCaller } from "./credential.ts";
import { callerFromJwt } from "./jwt.ts";
import { callerFromSession, rememberedSession, type SessionOptions } from "./session.ts";

/** What resolving an account caller (API key, user JWT, session cookie) needs besides the request. */
export type AccountCallerOptions = ApiKeyOptions & SessionOptions;

/** What resolving any caller needs besides the request: the account options and the agent tokens' rate limit. */
export type CallerOptions = AccountCallerOptions & AgentTokenOptions;

/**
 * Resolves the account caller of a request from its headers. A bearer credential, when present, decides alone (an
 * invalid key gives null even with a valid cookie): a JWT's shape is a user JWT, anything else an API key (one
 * statement with the member's standing); else the session cookie (one statement for a cookie this process saw
 * better-auth verify, else better-auth's session lookup and one statement).
 * @returns the caller, or null when there are no valid credentials (→ 401).
 */
export async function resolveCaller(
  auth: Auth,
  knex: Knex,
  headers: Headers,
  options: AccountCallerOptions,
): Promise<Caller | null> {
  const credential = bearerCredential(headers);
  if (credential && isJwt(credential)) return callerFromJwt(auth, knex, credential, options);
  if (credential) return callerFromApiKey(knex, credential, options);
  return callerFromSession(auth, knex, headers, options);
}

/**
 * The caller this process resolved before from the credential in `headers`, as `surface` accepts credentials (the
 * agent API: agent tokens; every other surface: API keys or session cookies — a user JWT is never remembered this
 * way), to be confirmed by the statement that reads for the request; null when there is none to remember.
 */
export function rememberedCaller(
  auth: Auth,
  knex: Knex,
  headers: HeaderReader,
  surface: Surface,
  options: CallerOptions,
): RememberedCaller | null {
  if (surface === "none") return null;
  if (surface === "agent") return rememberedAgentToken(knex, headers, options);
  // A bearer credential decides alone (resolveCaller): a session cookie counts only without one.
  if (!bearerCredential(headers)) return rememberedSession(auth, headers, options);
  return rememberedApiKey(knex, headers, options);
}

/** The agent API's resolution (agent-token.ts): the caller, and whether the request is over the token's rate limit. */
export { callerFromAgentToken } from "./agent-token.ts";
/** The token of a request's session cookie (session.ts). */
export { sessionTokenOf } from "./session.ts";
