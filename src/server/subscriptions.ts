/**
 * graphql-transport-ws subscriptions on /graphql (same path as HTTP), served by src/server/graphql-ws-protocol.ts.
 * Apollo's plugins do not run there, so authentication happens at `connection_init` (the `connect` hook): credentials
 * come from the init payload
 * (`{ authorization: "Bearer <key>" }` or `{ "x-api-key": "<key>" }`) or the upgrade request's cookie.
 * A connection without valid credentials is closed with code 4403 (graphql-ws "Forbidden"), one that cannot be
 * authenticated because the database cannot be reached with 1013 (try again later). On shutdown, once the
 * HTTP requests are answered (events of the runs they waited for included), each socket is closed with **1012**
 * (Service Restart, IANA WebSocket close codes: the client should reconnect, after a delay) as soon as the queries and
 * mutations it has in flight have sent their results: graphql-ws clients retry on 1012 (as on 1001, 1006, 1013), and
 * a client reconnecting then reaches another instance.
 *
 * Hardening: frames are capped at {@link MAX_WS_PAYLOAD} bytes (`maxPayload`, larger
 * frames close the socket with 1009); the `prepare` hook runs the HTTP limits (tokens and bracket nesting before parsing,
 * depth, aliases, directives, introspection, cost), each refusal an `error` message for the operation, never a close;
 * a query or mutation sent over the socket gets HTTP's execution deadline and answer size limit; a socket must send
 * `connection_init` within {@link CONNECTION_INIT_TIMEOUT_MS}, and one
 * address holds at most {@link MAX_PENDING_PER_ADDRESS} sockets not yet authenticated (more: the upgrade answers
 * 429); results and errors go through the HTTP error formatter (codes, no internals, `errorId` in the log, no field
 * suggestions); a
 * cookie-authenticated connection must come from a trusted origin (SKIFF_BASE_URL or SKIFF_TRUSTED_ORIGINS). The
 * protocol caps operations per socket and the bytes a socket may hold unwritten (src/server/graphql-ws-protocol.ts);
 * writes dropped for a client that does not read, or is gone, are logged at debug level, once per socket.
 *
 * Access: each connection keeps its caller's memberships, roles and grants (reloaded when a
 * subscription starts) and shares them with all its subscriptions and their events, so that a fan-out to many
 * subscribers issues no access statement per subscriber; an announced access change of the caller (src/shared/access-changes.ts, or a cascade announced
 * by a database trigger) drops that cache and closes the connection with 4403.
 */
import type { Duplex } from "node:stream";
import type { FastifyInstance } from "fastify";
import {
  type DocumentNode,
  type ExecutionArgs,
  execute,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
} from "graphql";
import { handleProtocols } from "graphql-ws";
import { LRUCache } from "lru-cache";
import { type WebSocket, WebSocketServer } from "ws";
import { trustedOriginsOf } from "../auth/auth.ts";
import type { Caller } from "../auth/caller.ts";
import { clientAddress, proxyTrust } from "../http/client-address.ts";
import { AccessScope } from "../modules/access/index.ts";
import type { AppServices } from "../modules/services.ts";
import { ACCESS_CHANGED_TOPIC } from "../shared/access-changes.ts";
import { isDatabaseUnavailable } from "../shared/database-unavailable.ts";
import { timeLimitError } from "../shared/errors.ts";
import { StreamOverflowError } from "../shared/pubsub.ts";
import { authenticate } from "./authenticate.ts";
import { buildContext, withOrigin } from "./context.ts";
import { DOCUMENT_CACHE_BYTES, documentBytes } from "./document-bytes.ts";
import { createFormatError, notFoundBody } from "./format-error.ts";
import { BEHIND_CLOSE_CODE, GraphqlWsProtocol, ProtocolSocket } from "./graphql-ws-protocol.ts";
import { unicodeError } from "./input-checks.ts";
import { subscriptionsOpen } from "./metrics.ts";
import { costError, endDeadline, queryCost, startDeadline } from "./query-cost.ts";
import { parseWithinLimits, withoutSuggestions } from "./query-limits.ts";
import { recordRefusedOperation, refusedForInput } from "./refused-mutations.ts";
import { responseTooLargeError } from "./response-size.ts";
import { keyOperation, SharedResults, subscribeSharing } from "./shared-execution.ts";

/** Largest WebSocket frame accepted, in bytes (1 MB); a larger one closes the socket with 1009. */
export const MAX_WS_PAYLOAD = 1024 * 1024;
/** Milliseconds a socket may stay open without `connection_init` before it is closed with 4408. */
export const CONNECTION_INIT_TIMEOUT_MS = 3000;
/** Most sockets one client address may hold before they authenticate; more upgrades answer 429. */
export const MAX_PENDING_PER_ADDRESS = 20;

/**
 * A subscription's results over one socket, counted in {@link subscriptionsOpen} from its start to its end. When
 * its event stream ends with {@link StreamOverflowError} (the subscriber fell more than a buffer's worth of live
 * events behind), the socket is closed with {@link BEHIND_CLOSE_CODE} rather than an event skipped; the client
 * reconnects and resumes after the last cursor it received (docs/subscriptions.md "Order and cursors").
 */
class SocketResults extends SharedResults {
  readonly #socket: ProtocolSocket;

  constructor(events: AsyncIterator<unknown>, args: ExecutionArgs, socket: ProtocolSocket) {
    super(events, args);
    this.#socket = socket;
    subscriptionsOpen.inc();
  }

  protected override ended(): void {
    subscriptionsOpen.dec();
  }

  protected override failed(error: unknown): boolean {
    if (!(error instanceof StreamOverflowError)) return false;
    this.#socket.close(BEHIND_CLOSE_CODE, "Subscriber too far behind: reconnect and resume with the last cursor");
    return true;
  }
}

/** Query texts whose parsed and validated document is kept (see `checkedDocuments`), and the bytes they may hold. */
const CHECKED_DOCUMENTS = 500;

/** Close code of every socket on shutdown: 1012 Service Restart (reconnect; graphql-ws clients retry on it). */
export const SHUTDOWN_CLOSE_CODE = 1012;
/** Interval, in ms, at which the shutdown looks for sockets whose queries and mutations have all answered. */
const QUIET_POLL_MS = 20;

/**
 * Gives a request error graphql-js raised without a code the one Apollo gives it over HTTP: an error without a
 * path is about the request itself (a variable of the wrong type), so BAD_USER_INPUT.
 */
function withRequestCode(error: GraphQLError): GraphQLError {
  if (error.extensions?.code || error.path) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    extensions: { ...error.extensions, code: "BAD_USER_INPUT" },
  });
}

/**
 * Validation `errors` as Apollo answers them over HTTP (its ValidationError): each with the code
 * GRAPHQL_VALIDATION_FAILED, whatever code a rule gave it (graphql-armor's limits report BAD_USER_INPUT).
 */
function validationFailed(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map(
    (e) =>
      new GraphQLError(e.message, {
        nodes: e.nodes,
        source: e.source,
        positions: e.positions,
        originalError: e.originalError,
        extensions: { ...e.extensions, code: "GRAPHQL_VALIDATION_FAILED" },
      }),
  );
}

/**
 * The string value of `connection_init` payload key `name` (lower-case), its key matched in any case as HTTP header
 * names are (`Authorization`, `X-API-Key`); undefined when absent or not a string. Keys of the name in several cases
 * are one header repeated: their values joined with ", ", as HTTP gives a repeated header (two different credentials
 * are then refused as two credentials: `bearerCredential` in src/auth/credentials/credential.ts).
 */
function payloadHeader(payload: Record<string, unknown> | undefined, name: string): string | undefined {
  let found: string | undefined;
  for (const [key, value] of Object.entries(payload ?? {})) {
    if (key.toLowerCase() === name && typeof value === "string")
      found = found === undefined ? value : `${found}, ${value}`;
  }
  return found;
}

/** Origins allowed to open cookie-authenticated WebSockets: the sign-in's own ({@link trustedOriginsOf}). */
function trustedOrigins(services: AppServices): Set<string> {
  return new Set(trustedOriginsOf(services.config));
}

/**
 * One authenticated graphql-ws connection: its caller and its access (memberships, roles, grants), loaded
 * when a subscription starts and cached for the events of all its subscriptions; dropped when
 * an access change of the caller is announced, when the socket is also closed with 4403.
 */
interface Connection {
  caller: Caller;
  scope: AccessScope;
  /** The client's address, resolved at the upgrade (for the audit entries of its mutations). */
  address: string;
}

/**
 * A graphql-ws socket of this server: until it authenticates, the release of its slot among the address's pending
 * sockets; then its connection (dropped when the caller's access changes).
 */
class SkiffSocket extends ProtocolSocket {
  releaseSlot: (() => void) | undefined = undefined;
  connection: Connection | undefined = undefined;
}

/** The WebSocket side of a server, for its shutdown. */
export interface SubscriptionServer {
  /**
   * Closes every open socket with {@link SHUTDOWN_CLOSE_CODE}, each once the queries and mutations it has in flight
   * have sent their results (subscriptions do not delay it), and waits for the closing handshakes; at most
   * `timeoutMs` in all, then the sockets still open are terminated.
   */
  closeAll(timeoutMs?: number): Promise<void>;
}

/**
 * Attaches the WebSocket endpoint to the Fastify server; `validate` applies the same operation limits as HTTP.
 */
export function attachSubscriptions(
  app: FastifyInstance,
  schema: GraphQLSchema,
  services: AppServices,
  validate: (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[],
): SubscriptionServer {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_WS_PAYLOAD,
    handleProtocols,
    // Sockets are tracked by the protocol (one set, no close listener per socket).
    clientTracking: false,
    // ws constructs its server sockets as `new WebSocket(null, undefined, options)`, which SkiffSocket accepts.
    WebSocket: SkiffSocket as unknown as typeof WebSocket,
  });
  /**
   * The context of one operation on a connection: a subscription uses the connection's cached access, reloaded
   * when it starts (its events then cost no access statement); a query or mutation sent over the socket loads
   * its own, as over HTTP.
   */
  const contextOf = (socket: SkiffSocket, subscription: boolean) => {
    const connection = socket.connection;
    const caller = connection?.caller ?? null;
    // A new subscription reloads the connection's access once (memberships gained since, e.g. a new organization).
    if (subscription) connection?.scope.invalidate();
    const ctx = buildContext(services, caller, undefined, subscription ? connection?.scope : undefined);
    return withOrigin(ctx, "GRAPHQL", {}, connection?.address ?? null);
  };
  /** `errors`, once a mutation they refuse (its document or input) is recorded as the socket's caller's. */
  const refused = async (
    socket: ProtocolSocket,
    document: DocumentNode,
    operationName: string | null | undefined,
    errors: readonly GraphQLError[],
  ): Promise<readonly GraphQLError[]> => {
    if (refusedForInput(errors)) {
      await recordRefusedOperation(contextOf(socket as SkiffSocket, false), schema, document, operationName);
    }
    return errors;
  };
  const formatError = createFormatError(services.log);
  const origins = trustedOrigins(services);
  // As on HTTP: the error formatter, no field suggestions (graphql-armor's plugin does that over HTTP), and no
  // `extensions.http` (Apollo reads it for the HTTP status and takes it out of the answer).
  const format = (errors: readonly GraphQLError[]): GraphQLFormattedError[] =>
    errors.map((error) => {
      const formatted = formatError(withRequestCode(error).toJSON(), error);
      const { http: _http, ...extensions } = formatted.extensions ?? {};
      return {
        ...formatted,
        message: withoutSuggestions(formatted.message),
        ...(formatted.extensions && { extensions }),
      };
    });
  const { SKIFF_EXECUTION_TIMEOUT_MS: timeoutMs, SKIFF_MAX_RESPONSE_BYTES: maxBytes } = services.config;
  /** Sockets per client address (resolved as Fastify's `request.ip` is) that have not authenticated yet. */
  const pending = new Map<string, number>();
  const trust = proxyTrust(services.config.SKIFF_TRUST_PROXY);
  const release = (address: string) => {
    const left = (pending.get(address) ?? 1) - 1;
    if (left <= 0) pending.delete(address);
    else pending.set(address, left);
  };
  /**
   * Holds a slot of `address` in `pending` for `socket` until it closes, and returns the function that releases it
   * at authentication (and stops listening for the close). Made outside the upgrade handler so that the socket's
   * listener keeps only the address, not the upgrade request.
   */
  const holdSlot = (address: string, socket: Duplex) => {
    let counted = true;
    const settle = () => {
      if (counted) {
        counted = false;
        release(address);
      }
    };
    socket.once("close", settle);
    return () => {
      settle();
      socket.removeListener("close", settle);
    };
  };
  /**
   * Documents that passed parsing within the limits and validation, by query text (an LRU of at most
   * {@link CHECKED_DOCUMENTS} entries and DOCUMENT_CACHE_BYTES, each counted with its text: document-bytes.ts):
   * validation depends on the text and the schema only, and thousands of clients send the same subscription, so each
   * text is checked once (and kept once: operations of the same text share the entry's string). What depends on the
   * variables (their characters, the cost) is checked for every operation.
   */
  const checkedDocuments = new LRUCache<string, { document: DocumentNode; query: string }>({
    max: CHECKED_DOCUMENTS,
    maxSize: DOCUMENT_CACHE_BYTES,
    sizeCalculation: (checked) => documentBytes(checked.document),
  });
  const protocol = new GraphqlWsProtocol(
    {
      // The HTTP limits applied here too: tokens and bracket nesting (before parsing), the standard rules with
      // depth, aliases, directives and introspection, then the cost. A refusal is the operation's `error` message.
      prepare: (socket, payload) => {
        let checked = checkedDocuments.get(payload.query);
        if (!checked) {
          let parsed: DocumentNode;
          try {
            parsed = parseWithinLimits(payload.query);
          } catch (error) {
            if (error instanceof GraphQLError) return [error];
            throw error;
          }
          const errors = validate(schema, parsed);
          if (errors.length > 0) return refused(socket, parsed, payload.operationName, validationFailed(errors));
          checked = { document: parsed, query: payload.query };
          checkedDocuments.set(payload.query, checked);
        }
        // Its own document object per operation: the shared-execution key (text, variables) is kept per document.
        const document: DocumentNode = { ...checked.document };
        const malformed = unicodeError(schema, document, payload.variables, payload.operationName);
        if (malformed) return refused(socket, document, payload.operationName, [malformed]);
        const cost = queryCost(schema, document, payload.variables ?? undefined, payload.operationName);
        if (cost > services.config.SKIFF_MAX_QUERY_COST) return [costError(cost, services.config.SKIFF_MAX_QUERY_COST)];
        // Variables that do not coerce (a required one missing, a value of the wrong type) are the operation's
        // refusal, as HTTP refuses them (400 BAD_USER_INPUT): an `error` message, never a `next` result.
        const operation = getOperationAST(document, payload.operationName);
        if (operation) {
          const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {});
          const { errors } = coerced;
          if (errors) {
            // Coercion errors carry no code yet (the formatter gives them HTTP's): recorded as a refused input.
            const ctx = contextOf(socket as SkiffSocket, false);
            return recordRefusedOperation(ctx, schema, document, payload.operationName).then(() => errors);
          }
        }
        keyOperation(document, checked.query, payload.variables, payload.operationName);
        return {
          schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: contextOf(socket as SkiffSocket, operation?.operation === "subscription"),
        };
      },
      // The HTTP error formatter on every result and error message: codes, no SQL or stack text.
      format,
      // A query or mutation sent over the socket: HTTP's execution deadline and answer size limit.
      execute: async (args) => {
        startDeadline(args.contextValue as object, timeoutMs);
        const result = await execute(args);
        // Met by a resolver, or by a read statement cancelled at the deadline: one error, no partial data.
        const timedOut = endDeadline(args.contextValue as object);
        if (timedOut || result.errors?.some((e) => e.extensions?.code === "EXECUTION_TIME_LIMIT")) {
          return { errors: [timeLimitError(timeoutMs)] };
        }
        const size = Buffer.byteLength(JSON.stringify(result));
        return size > maxBytes ? { errors: [responseTooLargeError(size, maxBytes)] } : result;
      },
      subscribe: (args, socket) => subscribeSharing(args, (events) => new SocketResults(events, args, socket)),
      connect: async (socket, payload) => {
        // The upgrade request is kept until `connection_init` is handled; without it there is nothing to authenticate.
        const request = socket.request;
        if (!request) return false;
        const headers: Record<string, string | undefined> = {
          cookie: request.headers.cookie,
          authorization: payloadHeader(payload, "authorization"),
          "x-api-key": payloadHeader(payload, "x-api-key"),
        };
        // A browser sends its cookie with any page's WebSocket: only trusted pages may use it (no CSWSH). A browser
        // always sends `Origin`; a client without one is no browser, and holds its cookie itself.
        const origin = request.headers.origin;
        if (!headers.authorization && !headers["x-api-key"] && origin && !origins.has(origin)) return false;
        // A database outage is no refusal and no internal error (4500): 1013 "try again later", as HTTP's 503.
        const caller = await authenticate(services, headers, "graphql").catch((error: unknown) => {
          if (!isDatabaseUnavailable(error)) throw error;
          socket.close(1013, "Service temporarily unavailable: retry later");
          return null;
        });
        if (!caller) return false;
        const connection: Connection = {
          caller,
          scope: new AccessScope(services.knex, caller),
          address: clientAddress(request, trust),
        };
        const skiffSocket = socket as SkiffSocket;
        skiffSocket.connection = connection;
        skiffSocket.releaseSlot?.();
        skiffSocket.releaseSlot = undefined;
        return true;
      },
      closed: (socket) => {
        (socket as SkiffSocket).connection = undefined;
      },
      failed: (error) => services.log.error({ err: error }, "graphql-ws: internal error, socket closed with 4500"),
      // A client that does not read, or is gone: its business, not the server's (one line per socket).
      dropped: (_socket, reason) => services.log.debug({ err: reason }, "graphql-ws: writes dropped"),
    },
    CONNECTION_INIT_TIMEOUT_MS,
  );
  app.server.on("upgrade", (request, socket, head) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== "/graphql") {
      // No WebSocket is served there: the 404 any request for a path without a route gets, then the socket closes.
      const body = JSON.stringify(notFoundBody(request.method ?? "GET", request.url ?? "/"));
      socket.end(
        "HTTP/1.1 404 Not Found\r\nContent-Type: application/json; charset=utf-8\r\n" +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const address = clientAddress(request, trust);
    if ((pending.get(address) ?? 0) >= MAX_PENDING_PER_ADDRESS) {
      socket.end("HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    pending.set(address, (pending.get(address) ?? 0) + 1);
    const authenticatedNow = holdSlot(address, socket);
    wss.handleUpgrade(request, socket, head, (ws) => {
      (ws as SkiffSocket).releaseSlot = authenticatedNow;
      protocol.accept(ws as SkiffSocket, request);
    });
  });
  // When a caller's access changes, the cached access of its connections is dropped at once (no event is checked
  // against it any more) and their sockets are closed with 4403.
  const stopListening = services.pubsub.subscribe(ACCESS_CHANGED_TOPIC, (change) => {
    for (const socket of protocol.sockets) {
      const ws = socket as SkiffSocket;
      if (!ws.connection) continue;
      const { caller: p, scope } = ws.connection;
      const hit =
        (typeof change.apiKeyId === "string" && p.apiKeyId === change.apiKeyId) ||
        (typeof change.sessionId === "string" && p.sessionId === change.sessionId) ||
        (typeof change.userId === "string" && p.userId === change.userId);
      if (hit) {
        scope.invalidate();
        ws.connection = undefined;
        ws.close(4403, "Forbidden: access changed");
      }
    }
  });
  app.addHook("onClose", async () => {
    stopListening();
    protocol.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  return {
    async closeAll(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      let poll: NodeJS.Timeout | undefined;
      const waiting = new Set<ProtocolSocket>(protocol.sockets);
      /** Closes the sockets in `waiting` that have nothing in flight (all of them when `force`). */
      const closeQuiet = (force: boolean) => {
        for (const ws of waiting) {
          if (!force && ws.readyState === ws.OPEN && !ws.quiet()) continue;
          waiting.delete(ws);
          if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) {
            ws.close(SHUTDOWN_CLOSE_CODE, "Service restart: reconnect");
          }
        }
      };
      const closed = [...protocol.sockets].map(
        (ws) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === ws.CLOSED) return resolve();
            ws.once("close", () => resolve());
          }),
      );
      closeQuiet(false);
      if (waiting.size > 0) poll = setInterval(() => closeQuiet(false), QUIET_POLL_MS);
      // Operations still executing at half the time are cut: the other half is for the closing handshakes.
      const force = setTimeout(() => closeQuiet(true), timeoutMs / 2);
      await Promise.race([Promise.all(closed), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      clearTimeout(force);
      clearInterval(poll);
      for (const ws of protocol.sockets) ws.terminate();
    },
  };
}
