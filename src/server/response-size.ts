/**
 * Cap on the size of a GraphQL answer: a serialized `/graphql` response longer than
 * `maxBytes` is replaced by a 413 `RESPONSE_TOO_LARGE` naming its size and the limit (over WebSocket, the result of a
 * query or mutation by that error: src/server/subscriptions.ts). The query cost limit
 * refuses most oversized answers before they run; this is the backstop for costs the estimator underrates
 * (long strings, wide objects).
 */
import type { FastifyInstance } from "fastify";
import { GraphQLError } from "graphql";

/** The error of an answer of `size` bytes over the limit of `maxBytes` (HTTP 413 `RESPONSE_TOO_LARGE`). */
export function responseTooLargeError(size: number, maxBytes: number): GraphQLError {
  return new GraphQLError(`Response of ${size} bytes exceeds the limit of ${maxBytes} bytes; request fewer items`, {
    extensions: { code: "RESPONSE_TOO_LARGE", size, limit: maxBytes },
  });
}

/** Registers the `onSend` hook enforcing the cap on every `/graphql` response. */
export function capResponseSize(app: FastifyInstance, maxBytes: number): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (!request.url.startsWith("/graphql")) return payload;
    const size =
      typeof payload === "string" ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : 0;
    if (size <= maxBytes) return payload;
    reply.code(413).header("content-type", "application/json; charset=utf-8");
    reply.removeHeader("content-length");
    return JSON.stringify({ errors: [responseTooLargeError(size, maxBytes).toJSON()] });
  });
}
