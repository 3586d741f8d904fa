/**
 * Request ids: an incoming `x-request-id` is honoured when it is a plausible id (1–128 characters of
 * letters, digits and `._:-`), otherwise a UUID is generated. The id is the log's `reqId`, the GraphQL
 * context's `requestId`, and is echoed in the `x-request-id` header of every response.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

/** Header carrying the request id, in and out. */
export const REQUEST_ID_HEADER = "x-request-id";

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify `genReqId`: the client's `x-request-id` when acceptable (no log injection, bounded size), else a UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === "string" && ACCEPTED_ID.test(sent) ? sent : crypto.randomUUID();
}

/** Echoes the request id on every response, errors and 404s included. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
