/**
 * A management procedure of the internal procedure surface (docs/rest.md, Management procedures): `POST
 * /api/<object>.<action>` with a JSON object as body, executing one GraphQL mutation in-process — same roles,
 * validation, quotas, events and errors as /graphql. Unpublished (SKIFF_PUBLIC_API_ONLY=true hides it). The ids of
 * its body name the organization, so it reaches what its mutation reaches over GraphQL: a session the objects of
 * every organization it belongs to, an API key its own. Success: 200 `{ result: { data } }`; errors:
 * {@link procedureError}.
 */
import type { z } from "zod";
import { procedureError } from "./procedure-error.ts";
import type { RestRoute } from "./rest-route.ts";
import { parseInput } from "./validate.ts";

/** One procedure: its name (`<object>.<action>`), its body's JSON types, and the mutation it executes. */
export interface Procedure {
  name: string;
  /** The body's JSON types (a strict object: an unknown field is 400); the values' rules are the mutation's. */
  input: z.ZodObject;
  /** A GraphQL document with exactly one named mutation. */
  operation: string;
  /** The mutation's variables from the checked body. */
  variables(input: Record<string, unknown>): Record<string, unknown>;
  /** The mutation's field in `data`. */
  field: string;
}

/** The REST row of procedure `p`: POST only (every one is a mutation). */
export function procedureRoute(p: Procedure): RestRoute {
  return {
    method: "POST",
    path: `/api/${p.name}`,
    surface: "rest",
    organization: "named",
    published: false,
    operation: p.operation,
    variables: (req) => p.variables(parseInput(p.input, req.body ?? {}, "Invalid input")),
    respond: (data) => ({ status: 200, body: { result: { data: data[p.field] } } }),
    error: procedureError,
  };
}
