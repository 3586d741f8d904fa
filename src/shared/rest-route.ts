/**
 * The REST compatibility surface is a table: each row maps a documented method and path to a named
 * GraphQL operation executed in-process, and shapes status and body as the spec says. Rows hold no
 * domain logic; the behaviour lives once in the services behind the GraphQL resolvers.
 */
import type { FormattedExecutionResult } from "graphql";

/** Which surface is asking: agent tokens are accepted only by the agent API. */
export type Surface = "graphql" | "rest" | "agent";

/** What a row sees of the HTTP request. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Status and JSON body to send. */
export interface RestResponse {
  status: number;
  body: unknown;
  /** Extra response headers (e.g. `Retry-After` of a 429). */
  headers?: Record<string, string>;
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
  /** Listed in the published API (kept when SKIFF_PUBLIC_API_ONLY=true). */
  published: boolean;
  /** A GraphQL document with exactly one named operation. */
  operation: string;
  /** Builds the operation's variables; may throw BadUserInputError (answered by `error`). */
  variables(req: RestRequest): Record<string, unknown>;
  /** Shapes a successful result (`data` present, no errors); `variables` are the ones the operation ran with. */
  respond(data: Record<string, unknown>, variables: Record<string, unknown>): RestResponse;
  /** Shapes a failure: the first GraphQL error, its code, and the status mapped from that code. */
  error(error: RestError, status: number): RestResponse;
  /**
   * Optional: the endpoint returns a whole list that GraphQL serves in pages. The runner executes the
   * operation again with `cursorVariable` = the previous page's `pageInfo.endCursor` while `hasNextPage`,
   * and passes `respond` the first result with every page's `edges` concatenated at `connection`.
   */
  followPages?: FollowPages;
}

/** How a row follows a Relay connection's pages (see {@link RestRoute.followPages}). */
export interface FollowPages {
  /** Path of the connection inside `data`, e.g. `["projects"]`; it must select `edges` and `pageInfo { hasNextPage endCursor }`. */
  connection: readonly string[];
  /** Name of the operation variable that takes the cursor, e.g. `after`. */
  cursorVariable: string;
  /** Safety stop: more pages than this answer 500 (default 1000). */
  maxPages?: number;
}

/**
 * A row answered without GraphQL and without credentials: a fixed document such as an OpenAPI description.
 * Same `published` rule as {@link RestRoute}.
 */
export interface StaticRestRoute {
  method: "GET";
  path: string;
  published: boolean;
  /** Builds the response. */
  serve(req: RestRequest): RestResponse;
}

/** What a {@link CallbackRestRoute} sees: the request, its headers and its body bytes exactly as received. */
export interface CallbackRequest extends RestRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The raw body (empty when none); `body` is null for these rows. */
  rawBody: Buffer;
}

/**
 * An inbound callback row (ARCHITECTURE: "Inbound callbacks … are rows too, with their own credential check"):
 * no session or API key (`credentials: "none"`); the row authenticates the request itself (a secret in the URL,
 * a signature over the raw body) and calls its module's service with the instance's services `S`. The runner
 * skips JSON parsing for it (`rawBody: true`) and answers the path's other methods 405 with `Allow`.
 */
export interface CallbackRestRoute<S = unknown> {
  method: "POST" | "PUT";
  path: string;
  published: boolean;
  credentials: "none";
  rawBody: true;
  /** Builds the response; bad input must be a 4xx response, not a throw. */
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
  BAD_REQUEST: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
};

/** The first string value of a query parameter. */
export function queryParam(req: RestRequest, name: string): string | undefined {
  const v = req.query[name];
  return Array.isArray(v) ? v[0] : v;
}
