/**
 * The contract a REST row declares about itself: request parameters, body and responses as zod 4
 * schemas, declared once on the row. The OpenAPI 3.1 documents are generated from these declarations
 * (src/shared/openapi/generate.ts), and rows validate their requests with the same schema objects.
 * The declaration is optional per row: a published row without one is listed by test/contracts.
 */
import type { z } from "zod";

/** Which served document a row belongs to: `public` → /api/openapi.json, `agent` → /api/agent/openapi.json. */
export type OpenApiDocumentName = "public" | "agent";

/** Credentials a documented operation accepts (names of security schemes of the generated document). */
export type RouteSecurity = "account" | "agent" | "none" | "signature" | "license";

/** One documented response. `schema` absent: no body (e.g. 204). */
export interface ResponseDoc {
  description: string;
  /** The JSON body (converted with `z.toJSONSchema`, output form). */
  schema?: z.ZodType;
  /** Response headers, e.g. `Retry-After` of a 429: name → description. */
  headers?: Record<string, string>;
  /** Media types of a non-JSON body (e.g. `text/css`), each documented as a string, besides or instead of `schema`. */
  mediaTypes?: string[];
}

/** A row's contract (see the module docstring). Property names of `params` and `query` are the parameter names. */
export interface RouteDoc {
  /** Document the row is published in (default `public`). */
  document?: OpenApiDocumentName;
  /** Unique within its document, camelCase. */
  operationId: string;
  summary: string;
  description?: string;
  /** Grouping in the document (one tag per row). */
  tag?: string;
  /** Credentials (default: `account` for GraphQL rows, `none` for static rows, `signature` for callback rows). */
  security?: RouteSecurity;
  /** Path parameters (`:name` in the Fastify path), all required strings. */
  params?: z.ZodObject;
  /** Query parameters (input form; optional properties are optional parameters). */
  query?: z.ZodObject;
  /** Header parameters (lower-case names as sent, e.g. `x-github-event`; optional properties are optional). */
  headers?: z.ZodObject;
  /** JSON request body (also allowed on callback rows, which read it raw: then it documents what they parse). */
  body?: z.ZodType;
  /** Body media type when not JSON and without `body` (callback rows): documented as `{ type: string }` of this type. */
  bodyMediaType?: string;
  /** Responses by HTTP status (as a string, e.g. `"200"`). */
  responses: Record<string, ResponseDoc>;
}
