/**
 * JSON request bodies: Fastify's own parser (secure-json-parse, which refuses `__proto__` keys and
 * `constructor.prototype` so that no body can reach an object's prototype), with a refusal that says which of the
 * two it is. Fastify answers both a malformed body and a well-formed one carrying such a key with "Body is not valid
 * JSON"; a client whose JSON is valid would look for a syntax error that is not there.
 *
 * Nesting (the rule of src/shared/json-text.ts): a client's JSON document — a request body, the `variables` and `extensions` of a GraphQL request sent
 * by GET (src/server/input-checks.ts), the payload of a graphql-ws message (src/server/graphql-ws-protocol.ts) — may
 * nest objects and arrays at most MAX_JSON_DEPTH (src/shared/json-text.ts) levels deep; deeper is refused with 400 BAD_REQUEST (an
 * `error` message on a WebSocket) before any code walks it. JavaScript's own JSON parser does not recurse, but
 * `JSON.stringify` and every recursive walk of a value do, and overflow the stack at a few thousand levels.
 */
import type { FastifyInstance } from "fastify";
import { GraphQLError } from "graphql";
import { FORBIDDEN_JSON_KEY_MESSAGE, JSON_TOO_DEEP_MESSAGE, jsonTooDeep, parsesAsJson } from "../shared/json-text.ts";

/**
 * The GraphQL error (code BAD_REQUEST, HTTP 400) of a request whose JSON nests deeper than MAX_JSON_DEPTH (src/shared/json-text.ts):
 * for the `variables`/`extensions` of a GET and the payload of a graphql-ws `subscribe`.
 */
export function jsonTooDeepError(): GraphQLError {
  return new GraphQLError(JSON_TOO_DEEP_MESSAGE, { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
}

/** The 400 of a well-formed JSON body nested deeper than MAX_JSON_DEPTH (src/shared/json-text.ts) (code BAD_REQUEST in the answer). */
class JsonTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_CTP_INVALID_JSON_BODY";

  constructor() {
    super(JSON_TOO_DEEP_MESSAGE);
  }
}

/** The 400 of a well-formed JSON body that holds a key able to reach a prototype. */
class ForbiddenJsonKeyError extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_CTP_INVALID_JSON_BODY";

  constructor() {
    super(FORBIDDEN_JSON_KEY_MESSAGE);
  }
}

/**
 * Replaces `scope`'s `application/json` parser by Fastify's default one (same body limit, same refusals) whose
 * refusal of a well-formed body names the forbidden key rather than a syntax error, and which refuses a body nested
 * deeper than MAX_JSON_DEPTH (src/shared/json-text.ts) (400, "JSON nests … deeper than 64 levels"). `emptyAsNone`: an empty (or
 * blank) body is no body (`request.body` undefined) rather than Fastify's 400 "Body cannot be empty".
 */
export function parseJsonBodies(scope: FastifyInstance, { emptyAsNone = false } = {}): void {
  const standard = scope.getDefaultJsonParser("error", "error");
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    if (emptyAsNone && text.trim() === "") return done(null, undefined);
    standard(request, text, (error, value) => {
      if (error && text.length > 0 && parsesAsJson(text)) return done(new ForbiddenJsonKeyError(), undefined);
      if (!error && jsonTooDeep(value)) return done(new JsonTooDeepError(), undefined);
      done(error, value);
    });
  });
}
