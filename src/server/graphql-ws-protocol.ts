/**
 * The graphql-transport-ws protocol (graphql-ws's PROTOCOL.md: `connection_init`/`connection_ack`, `ping`/`pong`,
 * `subscribe`/`next`/`error`/`complete`) served on `ws` sockets, with graphql-ws's message validation
 * (`parseMessage`) and close codes. A connection's whole state lives in its socket object
 * ({@link ProtocolSocket}, the WebSocket class of the server), its events are dispatched by one method shared by all
 * sockets, and the keepalive is one sweep for all sockets; a subscription's results are pushed to a consumer object
 * ({@link ResultStream}) rather than awaited: an idle subscribed connection holds its socket and its subscription's
 * objects, no closure, timer, promise or suspended message handler of its own.
 *
 * Close codes (graphql-ws's): 4400 invalid message (or a server-only type from the client), 4401 `subscribe` before
 * `connection_ack`, 4403 refused `connection_init`, 4406 subprotocol other than `graphql-transport-ws`, 4408 no
 * `connection_init` within the wait, 4409 an operation id already running, 4429 a second `connection_init`, 4500 an
 * internal error (its message is logged, never sent); a frame ws refuses closes the socket with ws's code (1009 over
 * `maxPayload`, 1007 invalid UTF-8, 1002 protocol error). A message's payload nested deeper than
 * src/shared/json-text.ts's MAX_JSON_DEPTH is refused before anything walks it: a `subscribe` with an `error`
 * message (BAD_REQUEST, the socket stays open), any other message with 4400. Messages a socket receives once it is
 * closing (e.g. refused with 4406 at the upgrade) are dropped. Keepalive: every {@link KEEP_ALIVE_MS} each open
 * socket that has not answered the previous ping is terminated, the others are pinged.
 *
 * Limits per socket: at most {@link MAX_OPERATIONS_PER_SOCKET} operations at once (subscriptions, and queries and
 * mutations until their result is written); one more `subscribe` is answered with an `error` message for its id
 * (TOO_MANY_OPERATIONS), the socket stays open. A socket holding more than {@link MAX_BUFFERED_BYTES} not yet written
 * (a client that does not read) is closed with {@link BEHIND_CLOSE_CODE} before anything more is written or executed
 * for it. A write that fails because the connection is gone is no internal error: the `dropped` hook is told, once
 * per socket.
 */
import type { IncomingMessage } from "node:http";
import type { ExecutionArgs, ExecutionResult, GraphQLError, GraphQLFormattedError } from "graphql";
import { GraphQLError as GraphQLErrorClass, getOperationAST } from "graphql";
import { buildExecutionContext } from "graphql/execution/execute.js";
import { CloseCode, GRAPHQL_TRANSPORT_WS_PROTOCOL, MessageType, parseMessage, type SubscribePayload } from "graphql-ws";
import { WebSocket } from "ws";
import { holdsForbiddenKey, jsonTooDeep } from "../shared/json-text.ts";
import type { StreamConsumer } from "../shared/pubsub.ts";
import { forbiddenJsonKeyError, jsonTooDeepError } from "./json-bodies.ts";

/** Interval, in ms, of the keepalive sweep; a socket silent to a ping for one interval is terminated. */
export const KEEP_ALIVE_MS = 12_000;
/**
 * Most operations one socket may run at once: subscriptions, and queries and mutations from their `subscribe` until
 * their result is written. One more is refused with an `error` message (code TOO_MANY_OPERATIONS).
 */
export const MAX_OPERATIONS_PER_SOCKET = 100;
/**
 * Most bytes a socket may hold not yet written (ws's `bufferedAmount`, beyond what the kernel took): past it, the
 * client is not reading and the socket is closed with {@link BEHIND_CLOSE_CODE} instead of the next write.
 */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * Close code of a socket whose client fell too far behind (its send buffer, or its subscription's queue of live
 * events): 1013 Try Again Later, on which graphql-ws clients reconnect (and resume with their last cursor).
 */
export const BEHIND_CLOSE_CODE = 1013;

/**
 * The result stream of a running subscription: `take` pushes its next result to a consumer (see `StreamConsumer` in
 * src/shared/pubsub.ts), `return` ends it and its source.
 */
export interface ResultStream {
  take(consumer: StreamConsumer<ExecutionResult>): void;
  return(): Promise<unknown>;
}

/** What the transport decides; the protocol calls these hooks. */
export interface ProtocolHooks {
  /**
   * `connection_init` with its payload (an object, `{}` when absent): true acknowledges the connection, false closes
   * it with 4403. The hook may close the socket itself (then its answer is ignored).
   */
  connect(socket: ProtocolSocket, payload: Record<string, unknown>): Promise<boolean>;
  /**
   * `subscribe`: the operation's arguments, or errors to send as its `error` message (a promise of them when the
   * refusal is recorded first).
   */
  prepare(
    socket: ProtocolSocket,
    payload: SubscribePayload,
  ): ExecutionArgs | readonly GraphQLError[] | Promise<readonly GraphQLError[]>;
  /** Runs a query or mutation. */
  execute(args: ExecutionArgs): Promise<ExecutionResult>;
  /** Starts a subscription: its result stream, or a result with errors when its source could not be created. */
  subscribe(args: ExecutionArgs, socket: ProtocolSocket): Promise<ResultStream | ExecutionResult>;
  /** The errors of a result or an `error` message as sent (codes, no internals). */
  format(errors: readonly GraphQLError[]): GraphQLFormattedError[];
  /** The socket closed (after its subscriptions were ended). */
  closed(socket: ProtocolSocket): void;
  /** An internal error (the socket is closed with 4500). */
  failed(error: unknown): void;
  /**
   * Writes to `socket` are dropped, `reason` telling why: its send buffer passed {@link MAX_BUFFERED_BYTES} (it is
   * closed with {@link BEHIND_CLOSE_CODE}), or a write failed because the connection is gone. Once per socket; no
   * internal error.
   */
  dropped?(socket: ProtocolSocket, reason: unknown): void;
}

/**
 * A graphql-transport-ws socket: ws's WebSocket with the connection's protocol state as fields. `request` is the
 * upgrade request until `connection_init` has been handled; its operations map each operation id to its result
 * stream while a subscription runs, to null while an operation is being prepared or a query or mutation executes
 * (the first in two fields, most connections holding one: no map).
 */
export class ProtocolSocket extends WebSocket {
  /** The protocol this socket's events are dispatched to (set by {@link GraphqlWsProtocol.accept}). */
  protocolServer: GraphqlWsProtocol | undefined = undefined;
  request: IncomingMessage | undefined = undefined;
  initReceived = false;
  acknowledged = false;
  /** Answered the last keepalive ping (or opened since). */
  alive = true;
  initTimer: NodeJS.Timeout | undefined = undefined;
  /** Writes were dropped (client not reading, or gone) and the `dropped` hook told. */
  droppedWrites = false;
  /** The first operation's id and stream (a connection mostly runs one), then the others by id. */
  #firstId: string | undefined = undefined;
  #first: ResultStream | null = null;
  #more: Map<string, ResultStream | null> | null = null;

  /**
   * A socket of a WebSocket server (ws constructs it: `new WebSocket(null, undefined, options)`). Its events go to
   * {@link emit}, not to listeners: its listener table is made only when one is added (EventEmitter makes it then).
   */
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    (this as unknown as { _events: unknown })._events = undefined;
  }

  /** Dispatches `message`, `pong`, `close` and `error` to the protocol; other events as EventEmitter does. */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    const server = this.protocolServer;
    if (server) {
      if (event === "message") {
        server.received(this, String(args[0]));
        return true;
      }
      if (event === "pong") {
        this.alive = true;
        return true;
      }
      // A frame ws refused (too large, invalid UTF-8, bad opcode): ws is already closing the socket with its code.
      if (event === "error") return true;
      if (event === "close") server.socketClosed(this);
    }
    return super.emit(event, ...args);
  }

  /** Whether operation `id` runs (or is being prepared or executed). */
  hasOperation(id: string): boolean {
    return this.#firstId === id || (this.#more?.has(id) ?? false);
  }

  /** How many operations run (or are being prepared or executed). */
  operationCount(): number {
    return (this.#firstId === undefined ? 0 : 1) + (this.#more?.size ?? 0);
  }

  /** Operation `id`'s result stream (null while it is prepared or a query or mutation executes). */
  operation(id: string): ResultStream | null | undefined {
    return this.#firstId === id ? this.#first : this.#more?.get(id);
  }

  /** Records operation `id` (null until its stream exists). */
  setOperation(id: string, stream: ResultStream | null): void {
    if (this.#firstId === id || (this.#firstId === undefined && !this.#more?.has(id))) {
      this.#firstId = id;
      this.#first = stream;
    } else {
      this.#more ??= new Map();
      this.#more.set(id, stream);
    }
  }

  /** Forgets operation `id`. */
  deleteOperation(id: string): void {
    if (this.#firstId === id) {
      this.#firstId = undefined;
      this.#first = null;
    } else this.#more?.delete(id);
  }

  /** Forgets every operation; returns their streams. */
  takeOperations(): ResultStream[] {
    const streams = [this.#first, ...(this.#more?.values() ?? [])].filter((s): s is ResultStream => s !== null);
    this.#firstId = undefined;
    this.#first = null;
    this.#more = null;
    return streams;
  }

  /** Whether no query or mutation of this socket is executing (its running subscriptions do not count). */
  quiet(): boolean {
    if (this.#firstId !== undefined && this.#first === null) return false;
    for (const operation of this.#more?.values() ?? []) if (operation === null) return false;
    return true;
  }
}

/** Closes `socket` with 4408 unless it has sent `connection_init` (the timer of one socket, until its init). */
function initTimedOut(socket: ProtocolSocket): void {
  if (!socket.initReceived)
    socket.close(CloseCode.ConnectionInitialisationTimeout, "Connection initialisation timeout");
}

/** The message of a `subscribe` refused because its socket runs {@link MAX_OPERATIONS_PER_SOCKET} operations. */
const TOO_MANY_OPERATIONS = `Too many operations on this connection: at most ${MAX_OPERATIONS_PER_SOCKET} at once (complete one first)`;

/** The JSON text of each result without errors sent, for as long as the result is kept. */
const resultTexts = new WeakMap<ExecutionResult, string>();

/** Whether `value` is a result stream rather than a single result. */
function isStream(value: ResultStream | ExecutionResult): value is ResultStream {
  return typeof (value as Partial<ResultStream>).take === "function";
}

/**
 * The errors (code OPERATION_RESOLUTION_FAILURE, as Apollo answers over HTTP) of `args` whose document has no
 * operation to run: graphql-js's own messages (`Unknown operation named "x".`, `Must provide operation name if query
 * contains multiple operations.`), taken from its execution context builder as Apollo takes them from `execute`.
 */
function operationResolutionErrors(args: ExecutionArgs): GraphQLError[] {
  const built = buildExecutionContext(args);
  const errors = Array.isArray(built) ? (built as readonly GraphQLError[]) : [];
  const found = errors.length > 0 ? errors : [new GraphQLErrorClass("Must provide an operation.")];
  return found.map(
    (error) =>
      new GraphQLErrorClass(error.message, {
        nodes: error.nodes,
        extensions: { ...error.extensions, code: "OPERATION_RESOLUTION_FAILURE" },
      }),
  );
}

/**
 * The protocol for the sockets of one WebSocket server: {@link accept} each upgraded {@link ProtocolSocket}, and
 * {@link dispose} on shutdown. `sockets` holds every open socket.
 */
export class GraphqlWsProtocol {
  readonly sockets = new Set<ProtocolSocket>();
  readonly #hooks: ProtocolHooks;
  readonly #initWaitMs: number;
  readonly #sweep: NodeJS.Timeout;

  /** `initWaitMs`: how long a socket may stay open without `connection_init` (then 4408). */
  constructor(hooks: ProtocolHooks, initWaitMs: number, keepAliveMs = KEEP_ALIVE_MS) {
    this.#hooks = hooks;
    this.#initWaitMs = initWaitMs;
    this.#sweep = setInterval(() => this.#keepAlive(), keepAliveMs);
    this.#sweep.unref();
  }

  /** Takes over an upgraded socket (`request`: its upgrade request, kept until `connection_init`). */
  accept(socket: ProtocolSocket, request: IncomingMessage): void {
    socket.protocolServer = this;
    this.sockets.add(socket);
    if (socket.protocol !== GRAPHQL_TRANSPORT_WS_PROTOCOL) {
      socket.close(CloseCode.SubprotocolNotAcceptable, "Subprotocol not acceptable");
      return;
    }
    socket.request = request;
    socket.initTimer = setTimeout(initTimedOut, this.#initWaitMs, socket);
  }

  /** Stops the keepalive sweep and closes every open socket with 1001 (Going Away). */
  dispose(): void {
    clearInterval(this.#sweep);
    for (const socket of this.sockets) socket.close(1001, "Going away");
  }

  /** One keepalive round: terminates the sockets that did not answer the previous ping, pings the others. */
  #keepAlive(): void {
    for (const socket of this.sockets) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      if (!socket.alive) {
        socket.terminate();
        continue;
      }
      socket.alive = false;
      socket.ping();
    }
  }

  /**
   * A text (or binary) message from `socket`; an internal error closes it with 4500. Dropped when the socket is no
   * longer open: a socket this server is closing (refused subprotocol, 4403, …) has no request or state left to
   * serve it with.
   */
  received(socket: ProtocolSocket, data: string): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    this.#handle(socket, data).catch((error: unknown) => this.internalError(socket, error));
  }

  /**
   * Sends `data` on `socket`. Undefined when the socket can take more at once: it is no longer open, or it had
   * nothing buffered, so this write went straight to the kernel (or waits alone in the socket's buffer). Otherwise a
   * promise resolved once written, or once the write failed (the connection is gone: never a rejection): a reader
   * that does not keep up is then waited for, one write at a time. A socket over {@link MAX_BUFFERED_BYTES} is
   * closed instead (see `#writable`).
   */
  #send(socket: ProtocolSocket, data: string): Promise<void> | undefined {
    if (!this.#writable(socket)) return undefined;
    if (socket.bufferedAmount === 0) {
      socket.send(data);
      return undefined;
    }
    return new Promise((resolve) =>
      socket.send(data, (error) => {
        if (error) this.#dropped(socket, error);
        resolve();
      }),
    );
  }

  /**
   * Whether `socket` is open and its client keeps up; one holding more than {@link MAX_BUFFERED_BYTES} not yet
   * written is closed with {@link BEHIND_CLOSE_CODE} (false).
   */
  #writable(socket: ProtocolSocket): boolean {
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount <= MAX_BUFFERED_BYTES) return true;
    this.#dropped(socket, new Error(`Send buffer over ${MAX_BUFFERED_BYTES} bytes: closed with ${BEHIND_CLOSE_CODE}`));
    socket.close(BEHIND_CLOSE_CODE, "Client too far behind: reconnect");
    return false;
  }

  /** Tells the `dropped` hook, once per socket, why writes to `socket` are dropped. */
  #dropped(socket: ProtocolSocket, reason: unknown): void {
    if (socket.droppedWrites) return;
    socket.droppedWrites = true;
    this.#hooks.dropped?.(socket, reason);
  }

  /** `socket` closed: its timer stopped, its subscriptions ended, then the transport told. */
  socketClosed(socket: ProtocolSocket): void {
    this.sockets.delete(socket);
    clearTimeout(socket.initTimer);
    socket.initTimer = undefined;
    socket.request = undefined;
    for (const operation of socket.takeOperations()) operation.return().catch(() => {});
    this.#hooks.closed(socket);
  }

  /** Logs `error` and closes `socket` with 4500. */
  internalError(socket: ProtocolSocket, error: unknown): void {
    this.#hooks.failed(error);
    socket.close(CloseCode.InternalServerError, "Internal server error");
  }

  async #handle(socket: ProtocolSocket, data: string): Promise<void> {
    let message: ReturnType<typeof parseMessage>;
    try {
      message = parseMessage(data);
    } catch {
      return socket.close(CloseCode.BadRequest, "Invalid message received");
    }
    // A subscribe's payload is checked in #subscribe, which answers with an `error` message for its id.
    if (message.type !== MessageType.Subscribe && "payload" in message) {
      if (jsonTooDeep(message.payload)) {
        return socket.close(CloseCode.BadRequest, `Invalid message received: ${jsonTooDeepError().message}`);
      }
      if (holdsForbiddenKey(message.payload)) {
        // A close reason holds at most 123 bytes: the key, not the whole message.
        return socket.close(CloseCode.BadRequest, "Invalid message received: a key able to reach a prototype");
      }
    }
    switch (message.type) {
      case MessageType.ConnectionInit: {
        if (socket.initReceived) {
          return socket.close(CloseCode.TooManyInitialisationRequests, "Too many initialisation requests");
        }
        socket.initReceived = true;
        clearTimeout(socket.initTimer);
        socket.initTimer = undefined;
        const payload = message.payload && typeof message.payload === "object" ? message.payload : {};
        let permitted: boolean;
        try {
          permitted = await this.#hooks.connect(socket, payload);
        } finally {
          // The upgrade request (headers, raw headers, stream state) is not needed past authentication.
          socket.request = undefined;
        }
        if (socket.readyState !== WebSocket.OPEN) return;
        if (!permitted) return socket.close(CloseCode.Forbidden, "Forbidden");
        socket.acknowledged = true;
        return this.#send(socket, JSON.stringify({ type: MessageType.ConnectionAck }));
      }
      case MessageType.Ping:
        return this.#send(
          socket,
          JSON.stringify(
            message.payload ? { type: MessageType.Pong, payload: message.payload } : { type: MessageType.Pong },
          ),
        );
      case MessageType.Pong:
        return;
      case MessageType.Subscribe:
        return this.#subscribe(socket, message.id, message.payload);
      case MessageType.Complete: {
        const operation = socket.operation(message.id);
        socket.deleteOperation(message.id);
        if (operation) await operation.return();
        return;
      }
      default:
        // next, error, connection_ack: only a server sends them.
        return socket.close(CloseCode.BadRequest, `Unexpected message of type ${message.type}`);
    }
  }

  /** Whether operation `id` of `socket` is still wanted (not completed by the client, socket not closed). */
  #running(socket: ProtocolSocket, id: string): boolean {
    return socket.hasOperation(id);
  }

  async #subscribe(socket: ProtocolSocket, id: string, payload: SubscribePayload): Promise<void> {
    if (!socket.acknowledged) return socket.close(CloseCode.Unauthorized, "Unauthorized");
    if (socket.hasOperation(id)) {
      return socket.close(CloseCode.SubscriberAlreadyExists, `Subscriber for ${id} already exists`);
    }
    if (socket.operationCount() >= MAX_OPERATIONS_PER_SOCKET) {
      // Formatted here: the message holds nothing internal, and the code is the protocol's own.
      const payload = [{ message: TOO_MANY_OPERATIONS, extensions: { code: "TOO_MANY_OPERATIONS" } }];
      return this.#send(socket, JSON.stringify({ id, type: MessageType.Error, payload }));
    }
    socket.setOperation(id, null);
    let started = false;
    try {
      if (jsonTooDeep(payload) || holdsForbiddenKey(payload)) {
        const refusal = jsonTooDeep(payload) ? jsonTooDeepError() : forbiddenJsonKeyError();
        if (this.#running(socket, id)) await this.#error(socket, id, [refusal]);
        return;
      }
      const args = await this.#hooks.prepare(socket, payload);
      if (Array.isArray(args)) {
        if (this.#running(socket, id)) await this.#error(socket, id, args);
        return;
      }
      const execArgs = args as ExecutionArgs;
      const operation = getOperationAST(execArgs.document, execArgs.operationName);
      if (!operation) {
        if (this.#running(socket, id)) await this.#error(socket, id, operationResolutionErrors(execArgs));
        return;
      }
      // A socket closed (or closed now, its client not reading) starts nothing more.
      if (!this.#writable(socket)) return;
      const result =
        operation.operation === "subscription"
          ? await this.#hooks.subscribe(execArgs, socket)
          : await this.#hooks.execute(execArgs);
      if (isStream(result)) {
        if (!this.#running(socket, id)) {
          await result.return();
          return;
        }
        socket.setOperation(id, result);
        started = true;
        // The stream is read by its own consumer (which holds only the socket, the id and the stream), not by this
        // handler, whose message and arguments are then let go.
        result.take(new RunningSubscription(this, socket, id, result));
        return;
      }
      if (this.#running(socket, id)) await this.next(socket, id, result);
      await this.complete(socket, id);
    } finally {
      if (!started) socket.deleteOperation(id);
    }
  }

  /** Sends the `error` message of a subscription whose stream failed with `error`, and forgets the operation. */
  async failed(socket: ProtocolSocket, id: string, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await this.#error(socket, id, [
      new GraphQLErrorClass(message, { originalError: error instanceof Error ? error : undefined }),
    ]);
    socket.deleteOperation(id);
  }

  /** Sends `complete` for `id` unless the client completed it, and forgets the operation. */
  async complete(socket: ProtocolSocket, id: string): Promise<void> {
    if (!this.#running(socket, id)) return;
    socket.deleteOperation(id);
    await this.#send(socket, JSON.stringify({ id, type: MessageType.Complete }));
  }

  /**
   * Sends `result` as the `next` message of operation `id` (see `send`: undefined, or a promise resolved once
   * written when the socket has a backlog). A result without errors is serialized once whatever the number of
   * subscribers it is sent to (one result is shared by the subscribers of the same operation:
   * src/server/shared-execution.ts); the message is that text with the operation's id.
   */
  next(socket: ProtocolSocket, id: string, result: ExecutionResult): Promise<void> | undefined {
    if (result.errors?.length) {
      const payload = { ...result, errors: this.#hooks.format(result.errors) };
      return this.#send(socket, JSON.stringify({ id, type: MessageType.Next, payload }));
    }
    let payload = resultTexts.get(result);
    if (payload === undefined) {
      payload = JSON.stringify(result);
      resultTexts.set(result, payload);
    }
    return this.#send(socket, `{"id":${JSON.stringify(id)},"type":"${MessageType.Next}","payload":${payload}}`);
  }

  #error(socket: ProtocolSocket, id: string, errors: readonly GraphQLError[]): Promise<void> | undefined {
    return this.#send(socket, JSON.stringify({ id, type: MessageType.Error, payload: this.#hooks.format(errors) }));
  }
}

/**
 * A running subscription whose results are pushed (`take`): sends each as `next`, takes the next one at once when
 * the socket had no backlog, else once written (so a slow reader's backlog stays in the event stream, which ends it
 * past its cap), then `complete` or `error`. While no event comes it is this object only: no promise, no suspended
 * function.
 */
class RunningSubscription implements StreamConsumer<ExecutionResult> {
  readonly #protocol: GraphqlWsProtocol;
  readonly #socket: ProtocolSocket;
  readonly #id: string;
  readonly #results: ResultStream;

  constructor(protocol: GraphqlWsProtocol, socket: ProtocolSocket, id: string, results: ResultStream) {
    this.#protocol = protocol;
    this.#socket = socket;
    this.#id = id;
    this.#results = results;
  }

  onValue(result: ExecutionResult): void {
    // A socket no longer open takes no more results: its stream is ended when it closes.
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    // A failure here (serializing, writing, taking the next result) ends the subscription, never the process.
    let sent: Promise<void> | undefined;
    try {
      sent = this.#protocol.next(this.#socket, this.#id, result);
    } catch (error) {
      this.onError(error);
      return;
    }
    if (sent === undefined) {
      // Written without a backlog: the next result is taken now (a fan-out goes on to the next subscriber).
      try {
        this.#results.take(this);
      } catch (error) {
        this.#internal(error);
      }
      return;
    }
    sent
      .then(
        () => this.#results.take(this),
        (error: unknown) => this.onError(error),
      )
      .catch((error: unknown) => this.#internal(error));
  }

  onEnd(): void {
    this.#protocol.complete(this.#socket, this.#id).catch((error: unknown) => this.#internal(error));
  }

  onError(error: unknown): void {
    this.#protocol.failed(this.#socket, this.#id, error).catch((e: unknown) => this.#internal(e));
  }

  #internal(error: unknown): void {
    this.#protocol.internalError(this.#socket, error);
  }
}
