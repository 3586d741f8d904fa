/**
 * Mounts better-auth's HTTP API (`/api/auth/*`: sign-up, sign-in, OAuth callbacks, organizations, two-factor,
 * API keys) on Fastify by converting each request to a WHATWG `Request` for `auth.handler` and copying the
 * `Response` back (status, headers including every `set-cookie`, body). The common `/api` rules hold there too: a
 * JSON body is refused as on every other route (src/server/json-bodies.ts), and a path or method better-auth does
 * not serve answers the not-found handler's 404.
 */
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from "fastify";
import type { Auth } from "../auth/auth.ts";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
} from "../shared/database-unavailable.ts";
import { INVALID_UTF8_MESSAGE } from "../shared/json-text.ts";
import { sessionTokenOf } from "./authenticate.ts";
import { jsonBodyRefusal, unsupportedCharset } from "./json-bodies.ts";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Header carrying Fastify's `request.ip` (which honours its trustProxy setting) to better-auth. */
export const CLIENT_IP_HEADER = "x-skiff-client-ip";

function toRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  const body = request.body instanceof Buffer && request.body.length > 0 ? new Uint8Array(request.body) : undefined;
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  // Fastify answers HEAD with its GET route; better-auth only knows GET.
  const method = request.method === "HEAD" ? "GET" : request.method;
  return new Request(url, { method, headers, body });
}

/**
 * Copies better-auth's `response` (status, headers with every `set-cookie`, `body`) to `reply`. A 404 without a body
 * (better-auth's answer to a path or method it does not serve) is the not-found handler's answer instead, the
 * `{ error, code: "NOT_FOUND" }` of every other path under `/api`.
 */
function sendResponse(reply: FastifyReply, response: Response, body: Buffer): FastifyReply {
  if (response.status === 404 && body.length === 0) {
    reply.callNotFound();
    return reply;
  }
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === "set-cookie" || name === "content-length" || name === "transfer-encoding") continue;
    reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header("set-cookie", cookies);
  return body.length > 0 ? reply.send(body) : reply.send();
}

/** Whether a `Content-Type` header value names JSON (`application/json`, any parameters). */
function isJson(contentType: string | undefined): boolean {
  return /^\s*application\/json\s*(;|$)/i.test(contentType ?? "");
}

/** Query parameters better-auth redirects to (or appends query parameters to). */
const REDIRECT_PARAMETERS = ["callbackURL", "errorCallbackURL", "newUserCallbackURL", "redirectTo"];

/**
 * The first redirect parameter of `url`'s query that is neither an absolute `http(s)` URL nor a path starting with a
 * single `/`, or null. better-auth builds `new URL()` from some of them without a base and answered 500 on junk such as
 * `callbackURL=[]`; such a request is the client's mistake: 400.
 */
export function invalidRedirectParameter(url: URL): string | null {
  for (const name of REDIRECT_PARAMETERS) {
    for (const value of url.searchParams.getAll(name)) {
      if (value === "") continue;
      if (value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) continue;
      try {
        if (["http:", "https:"].includes(new URL(value).protocol)) continue;
      } catch {
        // not an absolute URL
      }
      return name;
    }
  }
  return null;
}

/**
 * The first query parameter of `url` whose name or value holds a NUL character, or null. PostgreSQL's text cannot
 * store one (SQLSTATE 22021); better-auth's OAuth callback looks its `state` up in the database and, on that
 * error, redirects to its error page as `internal_server_error`. Such a request is the client's mistake: 400.
 */
export function unstorableParameter(url: URL): string | null {
  for (const [name, value] of url.searchParams) {
    if (name.includes("\u0000") || value.includes("\u0000")) return name;
  }
  return null;
}

/**
 * Whether better-auth's `response` hides a database outage. better-auth answers a sign-out 200 even when the
 * session's deletion failed (the session would stay valid once the database is back) and a few reads (e.g.
 * `get-session`) 500: a sign-out deletes its session once more here, and a 5xx looks one user up; either failing with
 * the database unreachable means the answer is a 503 (the client keeps its cookie and tries again).
 */
async function databaseFailed(auth: Auth, request: Request, response: Response): Promise<boolean> {
  const signOut = request.method === "POST" && new URL(request.url).pathname === "/api/auth/sign-out";
  if (!signOut && response.status < 500) return false;
  try {
    const { adapter } = await auth.$context;
    // Deleting by the token alone (a no-op for a token that is not one).
    const token = signOut ? await sessionTokenOf(auth, request.headers.get("cookie")) : null;
    // The adapter's own delete: better-auth's deleteSession finds the row first and skips the delete when that read fails.
    if (signOut && token && response.status < 400) {
      await adapter.delete({ model: "session", where: [{ field: "token", value: token }] });
    } else if (!signOut) await adapter.findOne({ model: "user", where: [{ field: "id", value: "" }] });
    return false;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return true;
    throw error;
  }
}

/**
 * Registers `/api/auth/*` (all methods) in its own encapsulated context, where every body is kept raw
 * (a Buffer, any content type, a `charset` other than UTF-8 refused with 415) so better-auth parses JSON and forms
 * itself. Effective once `app` is ready.
 * `onAnswered` sees each answer before it is sent (the audit log's entries: src/server/auth-audit.ts).
 */
export function registerAuthRoutes<L extends FastifyBaseLogger>(
  app: FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, L>,
  auth: Auth,
  onAnswered?: (request: FastifyRequest, response: Response) => Promise<void>,
): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // Read as UTF-8 (JSON, forms): another `charset` is 415 before better-auth runs.
    scope.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
      const refused = unsupportedCharset(request.headers["content-type"]);
      return refused ? done(refused, undefined) : done(null, body);
    });
    scope.route({
      method: METHODS,
      url: "/api/auth/*",
      handler: async (request, reply) => {
        const webRequest = toRequest(request);
        const url = new URL(webRequest.url);
        const unstorable = unstorableParameter(url);
        if (unstorable !== null) {
          return reply.code(400).send({
            code: "INVALID_INPUT_VALUE",
            message: `Query parameter ${JSON.stringify(unstorable)} contains a character that cannot be stored (NUL)`,
          });
        }
        // Bodies are read as UTF-8 (JSON, forms): bytes that do not decode are refused, never stored with U+FFFD.
        if (request.body instanceof Buffer && !isUtf8(request.body)) {
          return reply.code(400).send({ code: "INVALID_INPUT_VALUE", message: INVALID_UTF8_MESSAGE });
        }
        // A JSON body is refused as on every other route: a charset other than utf-8 (415), text that is not JSON,
        // a key able to reach a prototype, nesting too deep (400), in the common `{ error, code, details }`.
        if (request.body instanceof Buffer && isJson(request.headers["content-type"])) {
          const refused = jsonBodyRefusal(request.headers["content-type"], request.body);
          if (refused) throw refused;
        }
        const invalid = invalidRedirectParameter(url);
        if (invalid) {
          return reply.code(400).send({
            code: "INVALID_CALLBACK_URL",
            message: `${invalid} must be an absolute http(s) URL or a path starting with /`,
          });
        }
        let response = await auth.handler(webRequest);
        if (await databaseFailed(auth, webRequest, response)) {
          response = Response.json(
            {
              message: DATABASE_UNAVAILABLE_MESSAGE,
              code: "SERVICE_UNAVAILABLE",
            },
            { status: 503 },
          );
        }
        if (response.status === 503) response.headers.set("retry-after", String(RETRY_AFTER_SECONDS));
        // Recorded before the answer is sent (the audit log holds the event once the client sees its outcome).
        const body = Buffer.from(await response.arrayBuffer());
        if (onAnswered) await onAnswered(request, response);
        return sendResponse(reply, response, body);
      },
    });
  });
}
