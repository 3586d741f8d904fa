/**
 * JSON request bodies: Fastify's own parser (secure-json-parse, which refuses `__proto__` keys and
 * `constructor.prototype` so that no body can reach an object's prototype), with a refusal that says which of the
 * two it is. Fastify answers both a malformed body and a well-formed one carrying such a key with "Body is not valid
 * JSON"; a client whose JSON is valid would look for a syntax error that is not there.
 */
import type { FastifyInstance } from "fastify";

/** The 400 of a well-formed JSON body that holds a key able to reach a prototype. */
class ForbiddenJsonKeyError extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_CTP_INVALID_JSON_BODY";

  constructor() {
    super('Body is valid JSON but holds a forbidden key ("__proto__", or "prototype" inside "constructor")');
  }
}

/** Whether `text` parses as JSON (with JavaScript's own parser, which has no prototype check). */
function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Replaces `scope`'s `application/json` parser by Fastify's default one (same body limit, same refusals) whose
 * refusal of a well-formed body names the forbidden key rather than a syntax error. `emptyAsNone`: an empty (or
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
      done(error, value);
    });
  });
}
