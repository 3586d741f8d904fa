/**
 * Apollo `formatError`: errors with a known `extensions.code` pass through unchanged; PostgreSQL data
 * exceptions (only bad input values cause them) become BAD_USER_INPUT; a write whose parent row is gone (a foreign
 * key violation: the project, environment or application was deleted by a concurrent request after the caller's
 * check) becomes NOT_FOUND naming that parent, as when it was already gone at the check; anything else
 * (a bug, a database failure) is logged with the request id and answered as a masked
 * INTERNAL_SERVER_ERROR, never with a stack trace or SQL.
 */

import type { ApolloServerPlugin } from "@apollo/server";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { GraphQLFormattedError } from "graphql";
import { GraphQLError } from "graphql";
import type { Logger } from "pino";
import { isDataException, missingReference } from "../db/pg-errors.ts";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
} from "../shared/database-unavailable.ts";
import { echoed } from "../shared/errors.ts";

const PASS_THROUGH = new Set([
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "BAD_USER_INPUT",
  "CONFLICT",
  "IDEMPOTENCY_KEY_REUSED",
  "RATE_LIMITED",
  "CURSOR_EXPIRED",
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_REQUEST",
  "NOT_ACCEPTABLE",
  "METHOD_NOT_ALLOWED",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "OPERATION_RESOLUTION_FAILURE",
  "QUERY_COST_EXCEEDED",
  "EXECUTION_TIME_LIMIT",
  "RESPONSE_TOO_LARGE",
  "SERVICE_UNAVAILABLE",
]);

/** Message of the 503 answered while the database is unreachable. */
const UNAVAILABLE = DATABASE_UNAVAILABLE_MESSAGE;

/**
 * The error thrown by context creation during a database outage: SERVICE_UNAVAILABLE, HTTP 503 with
 * `Retry-After` (Apollo applies `extensions.http` of context errors).
 */
export function unavailableError(): GraphQLError {
  return new GraphQLError(UNAVAILABLE, {
    extensions: {
      code: "SERVICE_UNAVAILABLE",
      http: { status: 503, headers: new Map([["retry-after", String(RETRY_AFTER_SECONDS)]]) },
    },
  });
}

/** Apollo plugin: an answer carrying a SERVICE_UNAVAILABLE error gets status 503 and `Retry-After`. */
export function unavailablePlugin<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(rc) {
          const body = rc.response.body;
          const errors = body.kind === "single" ? body.singleResult.errors : undefined;
          if (!errors?.some((e) => e.extensions?.code === "SERVICE_UNAVAILABLE")) return;
          rc.response.http.status = 503;
          rc.response.http.headers.set("retry-after", String(RETRY_AFTER_SECONDS));
        },
      };
    },
  };
}

/**
 * Errors Apollo raises about the request itself without a code (automatic persisted queries), and the codes Apollo
 * documents for them.
 */
const APOLLO_REQUEST_ERRORS: Record<string, string> = {
  "provided sha does not match query": "BAD_REQUEST",
  "Unsupported persisted query version": "PERSISTED_QUERY_NOT_SUPPORTED",
};

/**
 * The code of a client error Apollo's request pipeline raised without one: a known message, or any error without a
 * path (not from a resolver) that Apollo itself marked HTTP 4xx (`extensions.http.status`), which is BAD_REQUEST.
 */
function requestErrorCode(formatted: GraphQLFormattedError, error: unknown): string | undefined {
  if (formatted.path) return undefined;
  const known = APOLLO_REQUEST_ERRORS[formatted.message];
  if (known) return known;
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  const http = (original instanceof GraphQLError ? original.extensions?.http : undefined) as
    | { status?: number }
    | undefined;
  return http?.status !== undefined && http.status >= 400 && http.status < 500 ? "BAD_REQUEST" : undefined;
}

/**
 * The code of a refusal of the request itself that Apollo raised as BAD_REQUEST with a status of its own (405: a
 * mutation or subscription sent by GET; 406: an `Accept` header allowing no JSON answer): the code the HTTP error handler gives that status, so /graphql and every
 * other path name it alike. Undefined for anything else.
 */
function statusCode(formatted: GraphQLFormattedError, error: unknown): string | undefined {
  if (formatted.path || formatted.extensions?.code !== "BAD_REQUEST") return undefined;
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  const http = (original instanceof GraphQLError ? original.extensions?.http : undefined) as
    | { status?: number }
    | undefined;
  return http?.status === undefined ? undefined : CODE_OF_STATUS[http.status];
}

/**
 * The noun NotFoundError uses for a row of `table` (`environments` → `Environment`, `member_grants` →
 * `MemberGrant`), so that a parent deleted during a write reads like one deleted before it.
 */
function nounOf(table: string): string {
  const singular = table.replace(/ies$/, "y").replace(/s$/, "");
  return singular
    .split("_")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/**
 * graphql-js's own refusal of a document over its `maxTokens` ("Document contains more that 5000 tokens") in the
 * wording of the refusal found before parsing ("more than", src/server/query-limits.ts): one message for one limit,
 * whichever check met it first.
 */
function tokenLimitWording(message: string): string {
  return message.replace(/^(Syntax Error: Document contains more) that (\d+ tokens)/, "$1 than $2");
}

/** Builds Apollo's `formatError`; masked errors get an `errorId` that is also in the log line. */
export function createFormatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = statusCode(formatted, error) ?? formatted.extensions?.code;
    if (typeof code === "string" && PASS_THROUGH.has(code)) {
      const { stacktrace: _s, ...extensions } = formatted.extensions ?? {};
      const message = code === "GRAPHQL_PARSE_FAILED" ? tokenLimitWording(formatted.message) : formatted.message;
      return { ...formatted, message, extensions: { ...extensions, code } };
    }
    const requestCode =
      code === undefined || code === "INTERNAL_SERVER_ERROR" ? requestErrorCode(formatted, error) : undefined;
    if (requestCode) {
      const { stacktrace: _s, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions: { ...extensions, code: requestCode } };
    }
    const original = (error as { originalError?: unknown })?.originalError ?? error;
    if (isDatabaseUnavailable(original)) {
      log.warn({ err: original, path: formatted.path }, "database unavailable");
      return {
        message: UNAVAILABLE,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: "SERVICE_UNAVAILABLE" },
      };
    }
    const missing = missingReference(original);
    if (missing) {
      log.info({ table: missing.table, path: formatted.path }, "write referenced a row deleted meanwhile");
      return {
        message: `${nounOf(missing.table)} ${echoed(missing.key)} not found`,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: "NOT_FOUND" },
      };
    }
    if (isDataException(original)) {
      // A value PostgreSQL cannot store or compare (e.g. a NUL byte in an id): bad input, not a server fault.
      return {
        message: "Invalid input value",
        locations: formatted.locations,
        path: formatted.path,
        extensions: {
          code: "BAD_USER_INPUT",
          fieldErrors: {},
          formErrors: ["A value contains characters or a format that cannot be stored"],
        },
      };
    }
    const errorId = crypto.randomUUID();
    log.error({ err: original, errorId, path: formatted.path }, "unexpected error");
    return {
      message: "Internal server error",
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: "INTERNAL_SERVER_ERROR", errorId },
    };
  };
}

/** The `code` of a refusal before any route runs, by its HTTP status (anything else 4xx: BAD_REQUEST). */
const CODE_OF_STATUS: Record<number, string> = {
  401: "UNAUTHENTICATED",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

/**
 * The body of a refusal before any route runs on a path other than /graphql: `{ error, code }` with the spec's
 * shape of invalid input, `details: { fieldErrors: {}, formErrors: [error] }` (the request as a whole is refused,
 * no field of it), so that every REST refusal reads alike.
 */
function refusalBody(error: string, code: string) {
  return { error, code, details: { fieldErrors: {}, formErrors: [error] } };
}

/** True for `/mcp` (with or without a query string). */
function isMcpPath(url: string): boolean {
  return url === "/mcp" || url.startsWith("/mcp?");
}

/**
 * A refusal of `/mcp` before its route runs, in the shape its route answers (the Streamable HTTP transport's JSON-RPC
 * error, `id` null, with the agent API's `message` and `code` beside it): a body that is not JSON is a parse error
 * (-32700), anything else -32000; a method other than POST is 405 with `Allow: POST` whatever its body.
 */
function mcpRefusal(reply: FastifyReply, method: string, status: number, error: FastifyError): FastifyReply {
  if (method !== "POST") return mcpMethodNotAllowed(reply);
  const code = refusalCode(error, status);
  const rpcCode = status === 400 && error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ? -32700 : -32000;
  return reply.code(status).send(mcpErrorBody(rpcCode, error.message, code));
}

/**
 * A refusal before any route runs whose code is its own rather than the one of its status (403 `INVALID_ORIGIN`):
 * answered by {@link createHttpErrorHandler} in the shape of its path, with `code`.
 */
export class RequestRefusal extends Error {
  readonly statusCode: number;
  readonly refusalCode: string;

  constructor(statusCode: number, refusalCode: string, message: string) {
    super(message);
    this.statusCode = statusCode;
    this.refusalCode = refusalCode;
  }
}

/** The `code` of a 4xx refusal before any route runs: a {@link RequestRefusal}'s own, else its status's. */
function refusalCode(error: FastifyError, status: number): string {
  return error instanceof RequestRefusal ? error.refusalCode : (CODE_OF_STATUS[status] ?? "BAD_REQUEST");
}

/** `/mcp`'s error body: the transport's JSON-RPC error (`id` null) with the agent API's `message` and `code` beside it. */
function mcpErrorBody(rpcCode: number, message: string, code: string) {
  return { jsonrpc: "2.0", error: { code: rpcCode, message }, id: null, message, code };
}

/** Answers a method other than POST on `/mcp`: 405 with `Allow: POST` (a stateless server keeps no stream or session). */
export function mcpMethodNotAllowed(reply: FastifyReply): FastifyReply {
  return reply
    .code(405)
    .header("allow", "POST")
    .send(mcpErrorBody(-32000, "Method not allowed: a stateless server, use POST", "METHOD_NOT_ALLOWED"));
}

/**
 * Fastify error handler for failures before GraphQL runs (malformed JSON, oversized body, ...):
 * 4xx keep their status with a clear message — in GraphQL's `{ errors }` shape on /graphql,
 * {@link refusalBody}'s `{ error, code, details }` elsewhere; anything else is logged and answered as a masked 500.
 */
export function createHttpErrorHandler(log: Logger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const status = error.statusCode ?? 500;
    const isGraphql = request.url.startsWith("/graphql");
    if (status >= 400 && status < 500 && isMcpPath(request.url))
      return mcpRefusal(reply, request.method, status, error);
    if (status >= 400 && status < 500) {
      const code = refusalCode(error, status);
      return reply
        .code(status)
        .send(
          isGraphql ? { errors: [{ message: error.message, extensions: { code } }] } : refusalBody(error.message, code),
        );
    }
    if (isDatabaseUnavailable(error)) {
      log.warn({ err: error, url: request.url }, "database unavailable");
      const body = { message: UNAVAILABLE, code: "SERVICE_UNAVAILABLE" };
      return reply
        .code(503)
        .header("retry-after", String(RETRY_AFTER_SECONDS))
        .send(
          isGraphql
            ? { errors: [{ message: UNAVAILABLE, extensions: { code: body.code } }] }
            : { error: UNAVAILABLE, code: body.code },
        );
    }
    const errorId = crypto.randomUUID();
    log.error({ err: error, errorId, url: request.url }, "unhandled HTTP error");
    const message = "Internal server error";
    return reply
      .code(500)
      .send(
        isGraphql
          ? { errors: [{ message, extensions: { code: "INTERNAL_SERVER_ERROR", errorId } }] }
          : { error: message, code: "INTERNAL_SERVER_ERROR", errorId },
      );
  };
}

/** Fastify's longest path parameter, in characters (its `maxParamLength` default). */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/**
 * Fastify's `frameworkErrors`: a URL the router refuses before any route runs — a path parameter longer than
 * {@link MAX_PATH_PARAMETER_LENGTH} characters, or a path that is not valid percent-encoded UTF-8 — names no
 * resource (no id Skiff issues is that long or undecodable): 404 NOT_FOUND, as for any id that names nothing, in
 * Skiff's `{ error, code }` shape with a message that says which, without repeating the URL (it may be megabytes
 * long). Any other router refusal keeps its status, code BAD_REQUEST.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    const message = `No resource has an id that long (path parameters are at most ${MAX_PATH_PARAMETER_LENGTH} characters)`;
    void reply.code(404).send({ error: message, code: "NOT_FOUND" });
    return;
  }
  if (error.code === "FST_ERR_BAD_URL") {
    const message = "No resource has this path: it does not decode as percent-encoded UTF-8";
    void reply.code(404).send({ error: message, code: "NOT_FOUND" });
    return;
  }
  void reply.code(error.statusCode ?? 400).send(refusalBody("The request's URL cannot be routed", "BAD_REQUEST"));
}

/** The page a browser gets for an address of the dashboard that no page has (see {@link createNotFoundHandler}). */
const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · Skiff</title></head>
<body><main><h1>Page not found</h1><p>No page of the dashboard is at this address.</p>
<p><a href="/import-sites">Go to the dashboard</a></p></main></body></html>
`;

/** Paths of the agent API, whose error body is `{ message, code }` (docs/agent-api.md). */
const AGENT_PATHS = /^\/api\/agent(\/|\?|$)/;

/** Paths of the APIs: a miss there is always answered in JSON, whatever the client accepts. */
const API_PATHS = /^\/(api|graphql|mcp|assets|healthz|readyz|metrics)(\/|\?|$)/;

/**
 * Fastify's not-found handler: a method and path that no route answers (an unknown path, or a known path with a
 * method it does not take) get 404 in Skiff's `{ error, code }` shape, `code` `NOT_FOUND`, naming the method but not
 * the URL (it may be megabytes long). Routes that document their methods (deploy URLs, the payment callback, `/mcp`)
 * answer 405 with `Allow` themselves. Under `/api/agent/` the body is the agent API's error body (`{ message, code }`),
 * as its endpoints answer. With `pages` (the dashboard is served), a browser's navigation — a GET asking for HTML,
 * outside the API paths — gets a 404 page with a link to the dashboard instead of the JSON.
 */
export function createNotFoundHandler(pages: boolean) {
  return (request: FastifyRequest, reply: FastifyReply): void => {
    const navigation =
      pages &&
      (request.method === "GET" || request.method === "HEAD") &&
      (request.headers.accept ?? "").includes("text/html") &&
      !API_PATHS.test(request.url);
    if (navigation) {
      void reply
        .code(404)
        .type("text/html; charset=utf-8")
        .header("content-security-policy", "default-src 'none'; frame-ancestors 'none'")
        .header("x-content-type-options", "nosniff")
        .send(NOT_FOUND_PAGE);
      return;
    }
    void reply.code(404).send(notFoundBody(request.method, request.url));
  };
}

/**
 * The JSON body of a 404 for `method` on `url` that no route answers: `{ error, code: "NOT_FOUND" }` naming the
 * method but not the URL, or under `/api/agent/` the agent API's `{ message, code }`. For the not-found handler and
 * for a WebSocket upgrade on a path that serves none (src/server/subscriptions.ts).
 */
export function notFoundBody(
  method: string,
  url: string,
): { error: string; code: string } | { message: string; code: string } {
  const message = `No route answers ${method} on this path`;
  return AGENT_PATHS.test(url) ? { message, code: "NOT_FOUND" } : { error: message, code: "NOT_FOUND" };
}
