/**
 * Reading a client's JSON text, one rule for every surface: secure-json-parse (the parser Fastify's own JSON bodies
 * go through) refuses a `__proto__` key and `prototype` inside `constructor`, so no document can reach an object's
 * prototype, and objects and arrays may nest at most {@link MAX_JSON_DEPTH} levels. JavaScript's JSON parser does not
 * recurse, but `JSON.stringify` and every recursive walk of a value do, and overflow the stack at a few thousand
 * levels. src/server/json-bodies.ts applies the same rules to request bodies; routes that need a body's exact bytes
 * (a signed deploy URL call) read it with {@link readJsonText}.
 */
import secureJson from "secure-json-parse";

/**
 * Deepest nesting of objects and arrays accepted in a client's JSON document (the document itself is level 1): far
 * above what any input of the API needs, far below the depth at which a recursive walk overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** The message of every refusal of a JSON document nested deeper than {@link MAX_JSON_DEPTH}. */
export const JSON_TOO_DEEP_MESSAGE = `JSON nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`;

/** The message of a well-formed JSON document holding a key able to reach a prototype. */
export const FORBIDDEN_JSON_KEY_MESSAGE =
  'Body is valid JSON but holds a forbidden key ("__proto__", or "prototype" inside "constructor")';

/** The message of a body whose bytes are not well-formed UTF-8 (refused, never read with U+FFFD in their place). */
export const INVALID_UTF8_MESSAGE = "Body is not valid UTF-8: request bodies are read as UTF-8 text";

/** The message of a body that does not parse as JSON. */
export const INVALID_JSON_MESSAGE = "Body is not valid JSON";

/**
 * Whether `value` (a parsed JSON value: objects, arrays, scalars) nests objects and arrays deeper than
 * {@link MAX_JSON_DEPTH} levels (a top-level object or array is level 1; a scalar is level 0). Walks with a stack of
 * its own, never recursing, and stops at the first container past the limit (a value referring to itself is
 * therefore "too deep" rather than walked forever).
 */
export function jsonTooDeep(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const current = pending.pop() as object;
    const depth = depths.pop() as number;
    if (depth > MAX_JSON_DEPTH) return true;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) {
      if (inner !== null && typeof inner === "object") {
        pending.push(inner);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** Whether `text` parses as JSON with JavaScript's own parser (no prototype check). */
export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `value` (parsed by JavaScript's own parser, e.g. a graphql-ws message) holds a key the rules of the file
 * comment refuse: an own `__proto__`, or `prototype` inside `constructor`.
 */
export function holdsForbiddenKey(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  try {
    secureJson.scan(value, { protoAction: "error", constructorAction: "error" });
    return false;
  } catch {
    return true;
  }
}

/**
 * `text` parsed as JSON by the rules of the file comment: `{ value }`, or `{ refused }` with the message of the
 * first rule it breaks ({@link INVALID_JSON_MESSAGE}, {@link FORBIDDEN_JSON_KEY_MESSAGE},
 * {@link JSON_TOO_DEEP_MESSAGE}).
 */
export function readJsonText(text: string): { value: unknown } | { refused: string } {
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
  } catch {
    // Refused as malformed or for a key: JavaScript's own parser, which has no key check, tells which.
    return { refused: parsesAsJson(text) ? FORBIDDEN_JSON_KEY_MESSAGE : INVALID_JSON_MESSAGE };
  }
  return jsonTooDeep(value) ? { refused: JSON_TOO_DEEP_MESSAGE } : { value };
}
