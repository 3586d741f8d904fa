/**
 * Time limits on what a client sends, so that silent or trickling connections cannot pile up (each holds a file
 * descriptor, of which a process has a few thousand): a connection that has sent no byte for
 * {@link SILENT_CONNECTION_MS} after it opened is closed; a request's headers must arrive within
 * {@link HEADERS_TIMEOUT_MS} and the whole request within {@link REQUEST_TIMEOUT_MS} (Node's own limits, checked
 * every {@link CHECK_INTERVAL_MS}; over them Node answers 408 and closes). Idle keep-alive connections are closed
 * after Fastify's keep-alive timeout (72 s); upgraded WebSockets are not HTTP requests (the graphql-ws heartbeat and
 * connection limits cover them). Answers that take long to write (an NDJSON export) are not limited.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";

/** A new connection that sends nothing for this long is closed (ms). */
export const SILENT_CONNECTION_MS = 30_000;
/** A request's headers must be received within this (ms). */
export const HEADERS_TIMEOUT_MS = 30_000;
/** A whole request, body included, must be received within this (ms): 10 MiB at about 90 KB/s. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** How often Node checks the two limits above (ms): the `http` option of the server's creation. */
export const CHECK_INTERVAL_MS = 5_000;

/** The limits, in ms (the constants above unless a test gives shorter ones). */
export interface SlowClientLimits {
  silentMs: number;
  headersMs: number;
  requestMs: number;
}

/** Applies the limits of the file comment to `server` (created with `connectionsCheckingInterval`). */
export function limitSlowClients(
  server: Server,
  limits: SlowClientLimits = {
    silentMs: SILENT_CONNECTION_MS,
    headersMs: HEADERS_TIMEOUT_MS,
    requestMs: REQUEST_TIMEOUT_MS,
  },
): void {
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = limits.requestMs;
  server.on("connection", (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, limits.silentMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  });
}
