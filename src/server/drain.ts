/**
 * Draining the HTTP server for a graceful shutdown: stop accepting connections, let requests already
 * received finish, close connections as soon as nothing more can come on them, and cut what is left at the
 * deadline. Upgraded WebSocket connections are not requests; subscriptions.ts closes them.
 *
 * Node's own `closeIdleConnections` (which `server.close()` calls, and Fastify's close too) is not safe here
 * (a reset seen about once in two SIGTERMs under load): it destroys a socket whose response was
 * ended but not yet flushed (`finished` is set by `end()`, the bytes are still in the socket's buffer), and a socket
 * accepted whose request bytes have not been read yet. This module replaces it on the tracked server by a check of
 * its own (see {@link trackRequests}); every response written while draining says `Connection: close`, so a
 * keep-alive client does not send a next request on a connection about to close.
 *
 * The listener closes once the connections the kernel had completed when the drain began are taken (closing it with
 * them in its accept queue would reset them, their requests sent: accept-queue.ts tells how many, and Node takes a
 * few per turn of its event loop). Connections made after that moment are new connections: their requests are
 * refused at once with 503 `SERVICE_UNAVAILABLE`, `Retry-After` and `Connection: close` (not handed to the
 * application), which keeps the turns short until the listener closes; one completing its handshake in the instant it
 * closes is reset by the kernel, as by any server closing a port.
 *
 * A request received is answered, never reset: waits inside requests end before the deadline on their own
 * (src/shared/shutdown.ts), and a request still unanswered at the deadline (a handler that did not finish) gets
 * 503 `SERVICE_UNAVAILABLE` with `Retry-After` and `Connection: close`, given {@link LAST_ANSWER_FLUSH_MS} to be
 * written, before the connections left are closed. Only a response already half-written at the deadline (its
 * headers sent) is cut.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { acceptQueueLength } from "./accept-queue.ts";

/**
 * Milliseconds a connection that has not sent a byte yet is kept while draining (its request may be on the wire,
 * or in the kernel's buffer): it becomes a request answered with `Connection: close`, or is closed after this.
 */
export const FRESH_CONNECTION_GRACE_MS = 1000;
/** Interval, in ms, at which draining looks for connections that fell idle. */
const REAP_INTERVAL_MS = 25;
/** Milliseconds the 503 answers written at the deadline get to be flushed before their connections are closed. */
const LAST_ANSWER_FLUSH_MS = 200;
/** Seconds a client is told to wait (`Retry-After`) before sending again what was refused at the deadline. */
const RETRY_AFTER_SECONDS = 1;
/** Message of the 503 answered at the drain's deadline. */
const SHUTTING_DOWN = "Service unavailable: this instance is shutting down; retry the request";

/**
 * Answers `request` with 503 `SERVICE_UNAVAILABLE` (its handler did not answer by the drain's deadline): GraphQL's
 * `{ errors }` shape on /graphql, `{ error, code }` elsewhere, as the HTTP error handler (format-error.ts).
 */
function answerUnavailable(request: IncomingMessage, response: ServerResponse): void {
  const body = request.url?.startsWith("/graphql")
    ? { errors: [{ message: SHUTTING_DOWN, extensions: { code: "SERVICE_UNAVAILABLE" } }] }
    : { error: SHUTTING_DOWN, code: "SERVICE_UNAVAILABLE" };
  const text = JSON.stringify(body);
  response.writeHead(503, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "retry-after": String(RETRY_AFTER_SECONDS),
    connection: "close",
  });
  response.end(text);
}

/**
 * Longest time, in ms, the drain goes on taking connections once those of the accept queue are taken (new ones keep
 * arriving: each is answered 503) before it closes the listener.
 */
const ACCEPT_QUEUE_MS = 1000;
/**
 * Longest time, in ms, the drain takes to accept the connections that were in the accept queue when it began: on a
 * loaded machine Node takes only a few per slow turn of its event loop, and closing the listener before it has them
 * would reset requests sent before the signal.
 */
const QUEUED_MAX_MS = 5000;

/** One turn of the event loop through its poll phase, where Node accepts connections (a few per turn). */
const pollTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Turns of the event loop until `queued` connections are accepted since the drain began (`accepted()` counts them)
 * and one turn accepts none, or {@link ACCEPT_QUEUE_MS} has passed with them accepted; at most
 * {@link QUEUED_MAX_MS}. With `queued` unknown (Infinity), until a turn accepts none (at most ACCEPT_QUEUE_MS).
 */
async function takeQueued(accepted: () => number, queued: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const before = accepted();
    await pollTurn();
    const now = accepted();
    const taken = now >= queued || !Number.isFinite(queued);
    if (taken && now === before) return;
    const elapsed = Date.now() - started;
    if (taken && elapsed >= ACCEPT_QUEUE_MS) return;
    if (elapsed >= QUEUED_MAX_MS) return;
  }
}

/** Counts the in-flight requests of one HTTP server and drains it. */
export interface RequestDrain {
  /** Requests received and not yet answered (response not closed). */
  readonly inFlight: number;
  /**
   * Stops accepting connections and waits until every in-flight request is answered and every connection closed,
   * at most `timeoutMs` milliseconds; then answers the requests left with 503 (headers not sent yet), lets those
   * answers be written (at most {@link LAST_ANSWER_FLUSH_MS}) and closes every remaining HTTP connection.
   * @returns the number of requests still unanswered at the deadline (answered 503 or cut; 0 on a clean drain).
   */
  drain(timeoutMs: number): Promise<number>;
}

/** What the drain knows of one HTTP connection. */
interface Connection {
  /** Requests received on it whose response has not closed yet (sent and flushed, or aborted). */
  open: number;
  /** Requests received on it so far. */
  served: number;
  /** `socket.bytesRead` when it last fell idle (no open request): more means a next request is arriving. */
  readWhenIdle: number;
  /** `Date.now()` when it was accepted. */
  since: number;
  /** A new connection, made after the drain began: its requests are refused (503, `Connection: close`). */
  late: boolean;
}

/**
 * Starts counting the requests of `server` (call before it listens) and replaces its `closeIdleConnections` by a
 * safe one: a connection is closed only when no response on it is open or unflushed, no byte of a next request has
 * arrived since its last response, and (for one that has never sent a request) it has been silent for
 * {@link FRESH_CONNECTION_GRACE_MS}.
 */
export function trackRequests(server: Server): RequestDrain {
  let inFlight = 0;
  let draining = false;
  /** Connections accepted since the drain began. */
  let acceptedSince = 0;
  /** How many of those were in the kernel's accept queue when it began (Infinity: not known, all of them). */
  let queued = Number.POSITIVE_INFINITY;
  const connections = new Map<Socket, Connection>();
  /** Responses not closed yet, with their request (`Connection: close` is set on those not begun when draining). */
  const responses = new Map<ServerResponse, IncomingMessage>();
  let onSettled: (() => void) | null = null;
  const settled = () => inFlight === 0 && connections.size === 0;
  const check = () => {
    if (onSettled && settled()) onSettled();
  };

  /** The close listener of every HTTP connection (one function for all: `this` is the socket). */
  function closed(this: Socket): void {
    connections.delete(this);
    check();
  }
  server.on("connection", (socket: Socket) => {
    // The accept queue is taken in order: past its length at the drain's start, a connection was made after it.
    const late = draining && ++acceptedSince > queued;
    connections.set(socket, { open: 0, served: 0, readWhenIdle: 0, since: Date.now(), late });
    socket.once("close", closed);
  });
  // An upgraded socket (WebSocket) leaves HTTP (subscriptions.ts closes it), and its listener with it.
  server.on("upgrade", (request) => {
    connections.delete(request.socket);
    request.socket.removeListener("close", closed);
    check();
  });
  // The application's listeners are called from here: a response they write at once is counted and marked while
  // draining, and a request on a late connection is refused before they see it.
  const handlers = server.listeners("request") as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    inFlight++;
    const connection = connections.get(request.socket);
    if (connection) {
      connection.open++;
      connection.served++;
    }
    responses.set(response, request);
    if (draining && !response.headersSent) response.setHeader("connection", "close");
    // `close` follows `finish` (the response's bytes handed to the system) or an aborted connection.
    response.once("close", () => {
      inFlight--;
      responses.delete(response);
      if (connection) {
        connection.open--;
        if (connection.open === 0) connection.readWhenIdle = request.socket.bytesRead;
      }
      check();
    });
    if (connection?.late) return answerUnavailable(request, response);
    for (const handler of handlers) handler.call(server, request, response);
  });

  /** True when nothing more can come on `socket`: closing it now cuts no request or response. */
  const idle = (socket: Socket, connection: Connection, now: number) =>
    connection.open === 0 &&
    socket.writableLength === 0 &&
    socket.bytesRead === connection.readWhenIdle &&
    (connection.served > 0 || now - connection.since >= FRESH_CONNECTION_GRACE_MS);

  const closeIdle = () => {
    const now = Date.now();
    for (const [socket, connection] of connections) {
      if (idle(socket, connection, now)) socket.destroy();
    }
  };
  server.closeIdleConnections = closeIdle;

  return {
    get inFlight() {
      return inFlight;
    },
    async drain(timeoutMs) {
      draining = true;
      // Connections the kernel already accepted are taken and answered before the listener closes (closing it would
      // reset them); those made since are refused with 503 (module comment).
      const address = server.address();
      queued = (address && typeof address === "object" ? acceptQueueLength(address.port) : null) ?? queued;
      await takeQueued(() => acceptedSince, queued);
      for (const response of responses.keys()) if (!response.headersSent) response.setHeader("connection", "close");
      server.close(() => {});
      const reaper = setInterval(closeIdle, REAP_INTERVAL_MS);
      /** Resolves once every request is answered and every connection closed, or after `ms`. */
      const settledWithin = async (ms: number) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          if (!settled()) {
            await new Promise<void>((resolve) => {
              onSettled = resolve;
              timer = setTimeout(resolve, ms);
            });
          }
        } finally {
          onSettled = null;
          clearTimeout(timer);
        }
      };
      try {
        await settledWithin(timeoutMs);
        const left = inFlight;
        if (left > 0) {
          for (const [response, request] of responses) {
            if (!response.headersSent && !response.writableEnded) answerUnavailable(request, response);
          }
          await settledWithin(LAST_ANSWER_FLUSH_MS);
        }
        closeIdle();
        if (!settled()) server.closeAllConnections();
        return left;
      } finally {
        clearInterval(reaper);
      }
    },
  };
}
