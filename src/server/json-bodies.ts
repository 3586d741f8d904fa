/**
 * JSON request bodies: Fastify's own parser (secure-json-parse, which refuses `__proto__` keys and
 * `constructor.prototype` so that no body can reach an object's prototype), with a refusal that says which of the
 * two it is. Fastify answers both a malformed body and a well-formed one carrying such a key with "Body is not valid
 * JSON"; a client whose JSON is valid would look for a syntax error that is not there. The same check applies to the
 * `variables` and `extensions` of a GET /graphql ({@link refuseForbiddenQueryKeys}).
 *
 * Bytes (RFC 8259: JSON exchanged between systems is UTF-8): a JSON body is read as UTF-8 only, and must be
 * well-formed UTF-8 (400 otherwise, never decoded with U+FFFD replacing what does not decode); a `charset` other than
 * utf-8 is 415 ({@link unsupportedCharset}, also on the routes that read raw bytes), and so is a body sent with a
 * `Content-Encoding` other than `identity` on any route ({@link refuseEncodedBodies}). A REST row's body is a JSON
 * object ({@link parseJsonBodies}).
 *
 * Nesting (the rule of src/shared/json-text.ts): a client's JSON document — a request body, the `variables` and `extensions` of a GraphQL request sent
 * by GET (src/server/input-checks.ts), the payload of a graphql-ws message (src/server/graphql-ws-protocol.ts) — may
 * nest objects and arrays at most MAX_JSON_DEPTH (src/shared/json-text.ts) levels deep; deeper is refused with 400 BAD_REQUEST (an
 * `error` message on a WebSocket) before any code walks it. JavaScript's own JSON parser does not recurse, but
 * `JSON.stringify` and every recursive walk of a value do, and overflow the stack at a few thousand levels.
 */
import { isUtf8 } from "node:buffer";
import type { FastifyInstance } from "fastify";
import { GraphQLError } from "graphql";
import { echoed } from "../shared/errors.ts";
import {
  FORBIDDEN_JSON_KEY_MESSAGE,
  INVALID_UTF8_MESSAGE,
  JSON_TOO_DEEP_MESSAGE,
  jsonTooDeep,
  parsesAsJson,
  readJsonText,
} from "../shared/json-text.ts";

/**
 * The GraphQL error (code BAD_REQUEST, HTTP 400) of a request whose JSON nests deeper than MAX_JSON_DEPTH (src/shared/json-text.ts):
 * for the `variables`/`extensions` of a GET and the payload of a graphql-ws `subscribe`.
 */
export function jsonTooDeepError(): GraphQLError {
  return new GraphQLError(JSON_TOO_DEEP_MESSAGE, { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
}

/**
 * The GraphQL error (code BAD_REQUEST, HTTP 400) of a graphql-ws `subscribe` whose payload holds a key able to reach
 * a prototype: what HTTP answers for the same key in a body (src/shared/json-text.ts).
 */
export function forbiddenJsonKeyError(): GraphQLError {
  return new GraphQLError(FORBIDDEN_JSON_KEY_MESSAGE.replace(/^Body/, "The payload"), {
    extensions: { code: "BAD_REQUEST", http: { status: 400 } },
  });
}

/**
 * The 400 of a JSON body refused before any route runs (code BAD_REQUEST in the answer): its bytes are not
 * well-formed UTF-8, its text is not JSON, it holds a key able to reach a prototype or it nests deeper than
 * MAX_JSON_DEPTH (src/shared/json-text.ts); `message` says which.
 */
class JsonBodyError extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_CTP_INVALID_JSON_BODY";
}

/** The 415 of a request whose body is not sent as Skiff reads it (code UNSUPPORTED_MEDIA_TYPE in the answer). */
class UnsupportedMediaTypeError extends Error {
  readonly statusCode = 415;
  readonly code = "FST_ERR_CTP_INVALID_MEDIA_TYPE";
}

/** The 400 of a well-formed JSON body that is not an object, on a surface whose bodies are objects (code BAD_REQUEST). */
class NotAnObjectError extends Error {
  readonly statusCode = 400;
  readonly code = "FST_ERR_CTP_INVALID_JSON_BODY";

  constructor(value: unknown) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    super(`Body must be a JSON object, not ${kind} (send {} for none)`);
  }
}

/** The labels of UTF-8 (WHATWG Encoding: `utf-8`, `utf8`, `unicode-1-1-utf-8`, …), lower case. */
const UTF8_LABELS = new Set([
  "utf-8",
  "utf8",
  "unicode-1-1-utf-8",
  "unicode11utf8",
  "unicode20utf8",
  "x-unicode20utf8",
]);

/** The `charset` parameter of a `Content-Type` header value (quotes removed), or null when it has none. */
function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? "");
  return match ? (match[1] ?? match[2] ?? "") : null;
}

/**
 * The 415 UNSUPPORTED_MEDIA_TYPE (an error for a content-type parser's `done`) of a `Content-Type` header value whose
 * `charset` parameter is not a label of UTF-8 (any case, quoted or not: `utf-8`, `utf8`, …), naming it through
 * `echoed`; null when it has no `charset` or a UTF-8 one. Every body Skiff reads (JSON, and the raw bytes of the
 * callback rows and `/api/auth/*`) is read as UTF-8 (docs/rest.md).
 */
export function unsupportedCharset(contentType: string | string[] | undefined): Error | null {
  const charset = charsetOf(Array.isArray(contentType) ? contentType[0] : contentType);
  if (charset === null || UTF8_LABELS.has(charset.toLowerCase())) return null;
  return new UnsupportedMediaTypeError(`Unsupported charset "${echoed(charset)}": bodies are read as utf-8 only`);
}

/**
 * The refusal of a JSON body's bytes sent with `contentType`: 415 for a `charset` other than utf-8 (any case, quoted
 * or not), 400 for bytes that are not well-formed UTF-8; null when they are read as UTF-8.
 */
function bytesRefusal(contentType: string | undefined, bytes: Buffer): Error | null {
  return unsupportedCharset(contentType) ?? (isUtf8(bytes) ? null : new JsonBodyError(INVALID_UTF8_MESSAGE));
}

/**
 * The refusal of a JSON body by the rules {@link parseJsonBodies} applies, for a route that keeps its body's bytes and
 * parses them itself (better-auth's `/api/auth/*`): 415 for a `charset` other than utf-8; 400 for bytes that are not
 * UTF-8, text that is not JSON, a key able to reach a prototype or nesting deeper than MAX_JSON_DEPTH
 * (src/shared/json-text.ts), each with the message every other route gives it. Null when the body is read as it is;
 * an empty (or blank) body is no body.
 */
export function jsonBodyRefusal(contentType: string | undefined, bytes: Buffer): Error | null {
  const refused = bytesRefusal(contentType, bytes);
  if (refused) return refused;
  const text = bytes.toString("utf8");
  if (text.trim() === "") return null;
  const read = readJsonText(text);
  return "refused" in read ? new JsonBodyError(read.refused) : null;
}

/**
 * Replaces `scope`'s `application/json` parser by Fastify's default one (same body limit, same refusals) whose
 * refusal of a well-formed body names the forbidden key rather than a syntax error, and which refuses a body nested
 * deeper than MAX_JSON_DEPTH (src/shared/json-text.ts) (400, "JSON nests … deeper than 64 levels"). The body is
 * read as UTF-8 only: a `charset` parameter other than `utf-8` (any case, quoted or not) is refused with 415
 * ({@link unsupportedCharset}), and bytes that are not well-formed UTF-8 with 400 ("Body is not valid UTF-8") rather
 * than decoded with U+FFFD in their place. `restBodies` (the REST rows, docs/rest.md): an empty (or blank) body is no
 * body (`request.body` undefined) rather than Fastify's 400 "Body cannot be empty", and a body is a JSON object —
 * `null`, an array, a string, a number or a boolean is refused with 400 ("Body must be a JSON object") before the row.
 */
export function parseJsonBodies(scope: FastifyInstance, { restBodies = false } = {}): void {
  const standard = scope.getDefaultJsonParser("error", "error");
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const bytes = body as Buffer;
    const refused = bytesRefusal(request.headers["content-type"], bytes);
    if (refused) return done(refused, undefined);
    const text = bytes.toString("utf8");
    if (restBodies && text.trim() === "") return done(null, undefined);
    standard(request, text, (error, value) => {
      if (error && text.length > 0 && parsesAsJson(text))
        return done(new JsonBodyError(FORBIDDEN_JSON_KEY_MESSAGE), undefined);
      if (!error && jsonTooDeep(value)) return done(new JsonBodyError(JSON_TOO_DEEP_MESSAGE), undefined);
      if (!error && restBodies && (value === null || typeof value !== "object" || Array.isArray(value))) {
        return done(new NotAnObjectError(value), undefined);
      }
      done(error, value);
    });
  });
}

/**
 * Refuses, on every route of `app` (a root-level hook), a request carrying a body with a `Content-Encoding` other
 * than `identity` (gzip, br, deflate, anything): 415 UNSUPPORTED_MEDIA_TYPE naming the encoding. No route decodes
 * a body, so an encoded one would otherwise be read as it arrived (a 400 "not valid JSON" for gzip, or bytes taken
 * as they are for an unknown encoding).
 */
export function refuseEncodedBodies(app: FastifyInstance): void {
  app.addHook("onRequest", async (request) => {
    const header = request.headers["content-encoding"];
    if (header === undefined) return;
    const length = request.headers["content-length"];
    const hasBody = request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
    const codings = header
      .split(",")
      .map((coding) => coding.trim())
      .filter((coding) => coding !== "" && coding.toLowerCase() !== "identity");
    if (!hasBody || codings.length === 0) return;
    throw new UnsupportedMediaTypeError(
      `Content-Encoding "${echoed(codings.join(", "))}" is not supported: send the body unencoded (identity)`,
    );
  });
}

/**
 * Refuses, as a POST body holding one is refused (the same parser, secure-json-parse, through
 * {@link readJsonText}), a GET of `path` whose `variables` or `extensions` query-string parameter (read as Apollo
 * reads it, by URLSearchParams) is JSON holding `__proto__` or `prototype` inside `constructor`: 400 BAD_REQUEST
 * naming the parameter, before Apollo or authentication runs. Malformed JSON and nesting are left to Apollo and
 * src/server/input-checks.ts, which answer them as for a POST.
 */
export function refuseForbiddenQueryKeys(app: FastifyInstance, path: string): void {
  app.addHook("onRequest", async (request) => {
    if (request.method !== "GET" || request.routeOptions.url !== path) return;
    const search = request.url.indexOf("?");
    if (search < 0) return;
    const params = new URLSearchParams(request.url.slice(search + 1));
    for (const name of ["variables", "extensions"]) {
      for (const text of params.getAll(name)) {
        const read = readJsonText(text);
        if ("refused" in read && read.refused === FORBIDDEN_JSON_KEY_MESSAGE) {
          throw new JsonBodyError(FORBIDDEN_JSON_KEY_MESSAGE.replace(/^Body/, `The "${name}" parameter`));
        }
      }
    }
  });
}
