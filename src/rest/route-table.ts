/**
 * The REST compatibility surface is a table: each row maps a documented method and path to a named
 * GraphQL operation executed in-process, and shapes status and body as the spec says. Rows hold no
 * domain logic; the behaviour lives once in the services behind the GraphQL resolvers.
 */
import type { FormattedExecutionResult } from "graphql";
import type { Surface } from "../server/authenticate.ts";

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
  /** Shapes a successful result (`data` present, no errors). */
  respond(data: Record<string, unknown>): RestResponse;
  /** Shapes a failure: the first GraphQL error, its code, and the status mapped from that code. */
  error(error: RestError, status: number): RestResponse;
}

/** HTTP status of each `extensions.code`; anything else is 500. */
export const STATUS_OF_CODE: Record<string, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  CONFLICT: 409,
};

/** The first string value of a query parameter. */
export function queryParam(req: RestRequest, name: string): string | undefined {
  const v = req.query[name];
  return Array.isArray(v) ? v[0] : v;
}
