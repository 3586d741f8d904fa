/**
 * Query parameters of the REST rows, one rule for every surface (docs/rest.md, "Query parameters"): each parameter
 * is given at most once, and an integer is written in canonical decimal — digits only, no sign, spaces or leading
 * zeros (`0` itself is fine) — within its range. Absent means the default; anything else, the empty value included,
 * is one issue at the parameter's name, which each surface answers in its own error shape.
 */
import { z } from "zod";
import type { RestRequest } from "./rest-route.ts";

/** The message of a parameter given more than once (`?limit=1&limit=2`). */
export const GIVEN_ONCE = "Must be given once";

/** Canonical decimal: `0`, or at most 15 digits without a leading zero (exact as a JavaScript number). */
const CANONICAL_INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;

/** Bounds of an integer query parameter and what its OpenAPI documentation says. */
export interface IntegerParam {
  min: number;
  max: number;
  /** Documented default (the row applies it when the parameter is absent). */
  default?: number;
  description?: string;
}

/**
 * The words of an integer out of `min`..`max` — in a query parameter, followed by how it is spelled; in a JSON
 * argument (an MCP tool's) alone, so that both surfaces say the same.
 */
export function integerRangeMessage(min: number, max: number): string {
  return `Must be an integer from ${min} to ${max}`;
}

/**
 * An integer query parameter as a zod schema of its text: `undefined` when absent, the number when it is a canonical
 * decimal integer from `min` to `max`, else the issue "Must be an integer from min to max…". Documented in OpenAPI as
 * `{ type: integer, minimum, maximum, default }` (the text it must spell).
 */
export function queryInteger({ min, max, default: fallback, description }: IntegerParam) {
  const message = `${integerRangeMessage(min, max)}, in digits (no sign, spaces or leading zeros)`;
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return undefined;
      const n = CANONICAL_INTEGER.test(text) ? Number(text) : Number.NaN;
      if (n >= min && n <= max) return n;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    })
    .meta({
      type: "integer",
      minimum: min,
      maximum: max,
      ...(fallback !== undefined && { default: fallback }),
      ...(description !== undefined && { description }),
    });
}

/**
 * Parses the query parameters that `schema` names (its keys) from the request: a parameter given more than once is
 * an issue at its name ({@link GIVEN_ONCE}) and is not parsed further; issues come in the schema's key order.
 */
export function parseQuery<S extends z.ZodObject>(
  schema: S,
  req: RestRequest,
): { success: true; data: z.output<S> } | { success: false; error: z.ZodError } {
  const names = Object.keys(schema.shape);
  const input: Record<string, string> = {};
  const repeated: z.core.$ZodIssue[] = [];
  for (const name of names) {
    const value = req.query[name];
    if (Array.isArray(value)) repeated.push({ code: "custom", path: [name], message: GIVEN_ONCE, input: value });
    else if (value !== undefined) input[name] = value;
  }
  const result = schema.safeParse(input);
  if (result.success && repeated.length === 0) return { success: true, data: result.data };
  const others = (result.error?.issues ?? []).filter((issue) => !repeated.some((r) => r.path[0] === issue.path[0]));
  const order = (issue: z.core.$ZodIssue) => names.indexOf(String(issue.path[0]));
  return { success: false, error: new z.ZodError([...repeated, ...others].sort((a, b) => order(a) - order(b))) };
}
