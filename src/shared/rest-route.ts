/**
 * The REST compatibility surface is a table: each row maps a documented method and path to a named
 * GraphQL operation executed in-process, and shapes status and body as the spec says. Rows hold no
 * domain logic; the behaviour lives once in the services behind the GraphQL resolvers.
 */
import type { FormattedExecutionResult } from "graphql";
import type { Config } from "../config.ts";
import { BadUserInputError } from "./errors.ts";
import type { RouteDoc } from "./openapi/route-doc.ts";
import { GIVEN_ONCE } from "./query-params.ts";

/**
 * Which surface is asking: agent tokens are accepted only by the agent API. `none`: a public row (no
 * credentials: the operation runs anonymously whatever the request carries; the row may check its own secret).
 */
export type Surface = "graphql" | "rest" | "agent" | "none";

/** What a row sees of the HTTP request. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  /** Request headers, lower-case names (e.g. `if-none-match`, `authorization`). */
  headers: Record<string, string | undefined>;
}

/** Status and JSON body to send. */
export interface RestResponse {
  status: number;
  body: unknown;
  /** Extra response headers (e.g. `Retry-After` of a 429). */
  headers?: Record<string, string>;
  /**
   * A callback row's word for its audit entry (docs/audit-log.md): the organization it acted in and the ids it acted
   * on, when it knows them (never sent to the client).
   */
  audit?: { organizationId: string; targetIds: readonly string[] };
}

/** A GraphQL error as returned by in-process execution. */
export type RestError = NonNullable<FormattedExecutionResult["errors"]>[number];

/** One row of the table. */
export interface RestRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Fastify path, e.g. `/api/site-import/:id`. */
  path: string;
  /** Credentials accepted (`agent`: agent tokens only; otherwise session or account API key). */
  surface: Surface;
  /**
   * Which of the caller's organizations the row reads and acts on. `active` (default): the caller's organization
   * alone — a session's active one, an API key's or agent token's bound one (spec: Site import rule 8) — so a read by
   * id follows the same organization as the list. `named`: the request names the organization (a path's `:org_id`,
   * a body's `organizationId`), any the caller belongs to.
   */
  organization?: "active" | "named";
  /** Listed in the published API (kept when SKIFF_PUBLIC_API_ONLY=true). */
  published: boolean;
  /** Optional contract (schemas of request and responses) from which the OpenAPI documents are generated. */
  doc?: RouteDoc;
  /** A GraphQL document with exactly one named operation. */
  operation: string;
  /**
   * Checks a credential the request carries before {@link variables} reads its body, for a row whose operation
   * checks its own secret (the docs host's license key): a missing or wrong one answers its 401 whatever the body
   * holds, as rows authenticated by the kernel do.
   * @throws UnauthenticatedError (answered by `error`).
   */
  authenticate?(req: RestRequest, config: Config): void;
  /** Builds the operation's variables; may throw BadUserInputError (answered by `error`). */
  variables(req: RestRequest): Record<string, unknown>;
  /**
   * Largest JSON body accepted, in bytes (larger: 413 PAYLOAD_TOO_LARGE); default 1 MiB, as every route. A row with
   * a larger one refuses a request that presents no credential at all with its 401 before the body is read, so that
   * only a caller who has one can make it read that much.
   */
  bodyLimit?: number;
  /**
   * Shapes a successful result (`data` present, no errors); `variables` are the ones the operation ran with, `req`
   * the request (e.g. for `If-None-Match`). A string body is sent as it is (set `content-type` in `headers`).
   * Required unless the row declares {@link bodyAt}.
   */
  respond?(data: Record<string, unknown>, variables: Record<string, unknown>, req: RestRequest): RestResponse;
  /**
   * Instead of `respond`: a successful result answers 200 with the value at this path of `data` (e.g.
   * `["application"]`), the operation's aliases spelling the documented field names. The path's field must be the
   * last one selected at each level (checked at start-up): a compiled read's JSON text is then sent without being
   * parsed (src/server/rest-bodies.ts).
   */
  bodyAt?: readonly string[];
  /** Shapes a failure: the first GraphQL error, its code, and the status mapped from that code. */
  error(error: RestError, status: number): RestResponse;
  /**
   * Optional, with {@link bodyAt} inside the connection: the endpoint returns a whole list that GraphQL serves in
   * pages. The runner executes the operation again with `cursorVariable` = the previous page's
   * `pageInfo.endCursor` while `hasNextPage`, and answers the lists at `bodyAt` of every page concatenated.
   */
  followPages?: FollowPages;
}

/** How a row follows a Relay connection's pages (see {@link RestRoute.followPages}). */
export interface FollowPages {
  /** Path of the connection inside `data`, e.g. `["projects"]`; it selects `pageInfo { hasNextPage endCursor }` before the body. */
  connection: readonly string[];
  /** Name of the operation variable that takes the cursor, e.g. `after`. */
  cursorVariable: string;
  /**
   * Safety stop of a JSON-array answer: more pages than this answer 400 BAD_USER_INPUT, asking to narrow the request
   * (default 1000). An NDJSON answer streams page by page and has none.
   */
  maxPages?: number;
  /**
   * Answer the items as NDJSON (`application/x-ndjson`: one JSON value per line) instead of one JSON array, streamed:
   * each later page is read when the client has taken the previous one.
   */
  ndjson?: boolean;
}

/**
 * A row answered without GraphQL and without credentials: a fixed document such as an OpenAPI description.
 * Same `published` rule as {@link RestRoute}.
 */
export interface StaticRestRoute {
  method: "GET";
  path: string;
  published: boolean;
  /** Optional contract (schemas of request and responses) from which the OpenAPI documents are generated. */
  doc?: RouteDoc;
  /** Builds the response; `publicOnly`: the server answers published rows alone (SKIFF_PUBLIC_API_ONLY). */
  serve(req: RestRequest, publicOnly: boolean): RestResponse;
}

/**
 * What a {@link CallbackRestRoute} handler receives besides the request: the instance's services. Empty here (this
 * layer never imports modules); src/modules/services.ts widens it to `AppServices` by declaration merging.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by src/modules/services.ts (declaration merging).
export interface CallbackServices {}

/** The request as a {@link CallbackRestRoute} sees it: the body's exact bytes and the headers. */
export interface CallbackRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** The body exactly as received (any content type; empty Buffer when there is none). */
  rawBody: Buffer;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A row for an inbound callback authenticated by its own credential (e.g. an HMAC signature over the raw body):
 * no session or API key is asked for (`credentials: "none"`), the body is not parsed (`rawBody: true`), and the
 * row's `handle` checks the credential itself and calls a service directly (there is no caller to run a GraphQL
 * operation as). Same `published` rule as {@link RestRoute}. The runner answers the path's other methods 405 with
 * `Allow`. `S` is the services the handler receives (the modules' `AppServices`, see {@link CallbackServices}).
 */
export interface CallbackRestRoute<S = CallbackServices> {
  method: "POST" | "PUT";
  path: string;
  published: boolean;
  credentials: "none";
  rawBody: true;
  /** Optional contract (security `signature` by default): request and response schemas for the OpenAPI documents. */
  doc?: RouteDoc;
  /** Largest body accepted, in bytes (larger: 413 before `handle`); default 1 MiB. */
  bodyLimit?: number;
  /** Checks the credential and does the work; answers 401 itself when the credential is wrong; bad input is a 4xx. */
  handle(req: CallbackRequest, services: S): Promise<RestResponse>;
}

/** Any row of the table. */
// biome-ignore lint/suspicious/noExplicitAny: a callback row is typed by its module with the instance's services.
export type AnyRestRoute = RestRoute | StaticRestRoute | CallbackRestRoute<any>;

/** HTTP status of each `extensions.code`; anything else is 500. */
export const STATUS_OF_CODE: Record<string, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  SERVICE_UNAVAILABLE: 503,
  BAD_REQUEST: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  CURSOR_EXPIRED: 410,
  QUERY_COST_EXCEEDED: 400,
  EXECUTION_TIME_LIMIT: 400,
  RESPONSE_TOO_LARGE: 413,
};

/**
 * The value of query parameter `name` (undefined when absent). A parameter is given at most once (docs/rest.md,
 * "Query parameters"). @throws BadUserInputError naming it when it is repeated.
 */
export function queryParam(req: RestRequest, name: string): string | undefined {
  const v = req.query[name];
  if (!Array.isArray(v)) return v;
  throw new BadUserInputError(`Invalid query parameter: ${name}: ${GIVEN_ONCE}`, {
    fieldErrors: { [name]: [GIVEN_ONCE] },
  });
}
