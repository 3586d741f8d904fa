/**
 * The MCP server's HTTP transport: Streamable HTTP (MCP specification 2025-06-18, Transports → Streamable HTTP) for a
 * stateless server answering JSON (no session, no SSE stream), implementing the SDK's `Transport` interface so that
 * the SDK's `Server` does the protocol (initialize, tools/list, tools/call, errors). One transport and one server
 * serve every POST of a Skiff server, each POST an {@link McpExchange}: its body (as Fastify parsed it) is checked as
 * the SDK's own Streamable HTTP transport checks it (406 without both accepted types, 415 for another content type,
 * 400 for an invalid JSON-RPC message (-32600 Invalid Request, JSON-RPC 2.0 §5.1), an empty batch or one too long, a second initialize or an unsupported
 * `MCP-Protocol-Version`; a request whose params do not fit its method's schema answers the JSON-RPC error -32602
 * Invalid params), its requests are handed to the server under ids of the transport's own (so that two
 * POSTs may use the same id at once) and the answer is the server's responses, under the client's ids again, as one
 * JSON body (202 without a request among the messages).
 *
 * It exists for the tools' answers: a tool's result is the PostgreSQL JSON text of a compiled read, and
 * {@link StatelessJsonTransport.raw} lets it stand in the answer as that text, spliced into the JSON-RPC response
 * when it is serialized, instead of being parsed into objects and serialized again.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { MAX_BATCH_SIZE } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { mediaTypeEssence } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ClientRequestSchema,
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

/** The HTTP answer of one POST: status, JSON body (text or its UTF-8 bytes; null: none) and extra headers. */
export interface McpHttpAnswer {
  status: number;
  body: string | Buffer | null;
  headers: Record<string, string>;
}

/**
 * The key of a stand-in, random per process: a raw JSON stand-in is `{ [RAW_KEY]: n }`, a text stand-in the string
 * `RAW_KEY:n`. No caller's data can hold the key, and inside a JSON string a stand-in's quotes would be escaped, so
 * a serialized stand-in only ever matches itself.
 */
const RAW_KEY = `__skiff_raw_json_${randomBytes(12).toString("hex")}`;
const RAW_PATTERN = new RegExp(`\\{"${RAW_KEY}":(\\d+)\\}|"${RAW_KEY}:(\\d+)"`, "g");

/** A JSON-RPC error answered with `status` (the SDK transport's shape: `{ jsonrpc, error, id: null }`). */
function errorAnswer(status: number, code: number, message: string): McpHttpAnswer {
  return {
    status,
    body: JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    headers: { "content-type": "application/json" },
  };
}

/** The schema of each request a client may send, by its method (the SDK's `ClientRequestSchema`). */
const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/**
 * Why request `message` does not fit its method's schema (`Invalid params: <path>: <reason>`, the first issue),
 * or null when it fits or its method is not a client request (the server then answers "Method not found").
 */
export function invalidParams(message: { method: string }): string | null {
  const checked = REQUEST_SCHEMAS.get(message.method)?.safeParse(message);
  const issue = checked && !checked.success ? checked.error.issues[0] : undefined;
  if (!issue) return null;
  return `Invalid params: ${issue.path.map(String).join(".") || "params"}: ${issue.message}`;
}

/** One header's value (the first of a repeated one). */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * One POST to the MCP server: the caller's `state` (whatever the tools need of the request), the texts its
 * {@link raw} stand-ins stand for, and the HTTP answer that replaces its JSON-RPC responses when it is refused.
 */
export class McpExchange<T> {
  /** The JSON texts {@link raw} stands in for, by index. */
  private readonly rawTexts: string[] = [];
  /** An HTTP answer that replaces the JSON-RPC responses (a refused credential), set by {@link refuse}. */
  refusal: McpHttpAnswer | null = null;
  /** What the tools need of this POST (its caller, ...). */
  readonly state: T;

  constructor(state: T) {
    this.state = state;
  }

  /**
   * A stand-in for `json` (the JSON text of an object) in a result: serialized, the answer holds `json` itself.
   * The stand-in is an object (`structuredContent` must be one) that means nothing outside this exchange.
   */
  raw(json: string): Record<string, unknown> {
    this.rawTexts.push(json);
    return { [RAW_KEY]: this.rawTexts.length - 1 };
  }

  /**
   * A stand-in for `text` as a string value: serialized, the answer holds `text` as a JSON string. What carries the
   * result until then (the protocol's promises, made when the request arrived) carries a short stand-in, not the
   * text (see {@link serialize}).
   */
  rawString(text: string): string {
    this.rawTexts.push(text);
    return `${RAW_KEY}:${this.rawTexts.length - 1}`;
  }

  /** Makes this POST answer `status` with `body` instead of its JSON-RPC responses (e.g. 401 for a revoked token). */
  refuse(status: number, body: Record<string, unknown>): void {
    this.refusal = { status, body: JSON.stringify(body), headers: { "content-type": "application/json" } };
  }

  /**
   * `value` as the UTF-8 bytes of its JSON text, with every {@link raw} stand-in replaced by its JSON and every
   * {@link rawString} stand-in by its text as a JSON string; the texts are then released (call it once). The pieces
   * are written into one buffer of the answer's size: no string of the whole answer is made (it would be copied once
   * to flatten it and again to encode it, and it would be young-generation garbage of the answer's size). The
   * exchange is made when its POST arrives and may be in V8's old generation by the time a text is added: a young
   * text an old object refers to survives every young-generation collection until a full one. Released, each
   * answer's text dies young, as the REST path's does (measured at 4 concurrent `list_projects` calls: 6–8 MB
   * promoted per 1,500 calls instead of 51–56 MB).
   */
  serialize(value: unknown): Buffer {
    const text = JSON.stringify(value);
    if (this.rawTexts.length === 0) return Buffer.from(text);
    const pieces: string[] = [];
    let at = 0;
    for (const match of text.matchAll(RAW_PATTERN)) {
      pieces.push(text.slice(at, match.index));
      const [, json, string] = match;
      pieces.push(json !== undefined ? this.rawTexts[Number(json)]! : JSON.stringify(this.rawTexts[Number(string)]!));
      at = match.index + match[0].length;
    }
    pieces.push(text.slice(at));
    this.rawTexts.length = 0;
    let size = 0;
    for (const piece of pieces) size += Buffer.byteLength(piece);
    const bytes = Buffer.allocUnsafe(size);
    let offset = 0;
    for (const piece of pieces) offset += bytes.write(piece, offset);
    return bytes;
  }
}

/** Where the server's response to one request goes: its POST and the id the client gave it. */
interface Pending {
  exchange: McpExchange<unknown>;
  clientId: RequestId;
  answer: (message: JSONRPCMessage) => void;
}

/** The stateless JSON transport of a Skiff server's MCP server (see the file's comment). */
export class StatelessJsonTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** The requests handed to the server and not answered yet, by the id they were handed under. */
  private readonly pending = new Map<number, Pending>();
  /** The last id a request was handed to the server under. */
  private lastId = 0;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * Takes the server's response to a request and hands it to its POST under the client's id; other messages
   * (server requests, notifications) have no stream here.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if ("method" in message || typeof message.id !== "number") return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.answer({ ...message, id: pending.clientId });
  }

  /** The exchange of the request the server handles under `id` (its `extra.requestId`); null once answered. */
  exchangeOf<T>(id: RequestId): McpExchange<T> | null {
    return typeof id === "number" ? ((this.pending.get(id)?.exchange as McpExchange<T> | undefined) ?? null) : null;
  }

  /**
   * Answers one POST, `exchange`, of `body` (as Fastify parsed it; undefined when empty) with `headers`; `extra`
   * (the caller's authentication) goes with every message to the server.
   */
  async handle(
    exchange: McpExchange<unknown>,
    body: unknown,
    headers: IncomingHttpHeaders,
    extra?: MessageExtraInfo,
  ): Promise<McpHttpAnswer> {
    const accept = header(headers, "accept");
    if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
      return errorAnswer(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    }
    if (mediaTypeEssence(header(headers, "content-type")) !== "application/json") {
      return errorAnswer(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    if (body === undefined) return errorAnswer(400, -32700, "Parse error: Invalid JSON");
    // JSON-RPC 2.0, Batch: an empty array is an invalid request, answered as one error.
    if (Array.isArray(body) && body.length === 0) {
      return errorAnswer(400, -32600, "Invalid Request: a batch must hold at least one message");
    }
    if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
      return errorAnswer(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => JSONRPCMessageSchema.parse(m));
    } catch {
      // JSON-RPC 2.0 §5.1: JSON that is not a valid Request object is -32600 (-32700 is for text that is not JSON).
      return errorAnswer(400, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
    }
    // By its method (the SDK's `isInitializeRequest` runs a whole schema parse for every message).
    if (messages.some((m) => "method" in m && m.method === "initialize")) {
      if (messages.length > 1)
        return errorAnswer(400, -32600, "Invalid Request: Only one initialization request is allowed");
    } else {
      const version = header(headers, "mcp-protocol-version");
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        return errorAnswer(
          400,
          -32000,
          `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
        );
      }
    }
    const responses: Promise<JSONRPCMessage>[] = [];
    for (const message of messages) {
      // A cancellation can only name a request of this same POST, whose answer it would leave unsent: not passed on
      // (cancelling is optional for the receiver).
      if ("method" in message && message.method === "notifications/cancelled") continue;
      if (!isJSONRPCRequest(message)) {
        this.onmessage?.(message, extra);
        continue;
      }
      // Params that do not fit the method are the client's error (-32602), answered here rather than by the server,
      // which would call them an internal error (-32603).
      const invalid = invalidParams(message);
      if (invalid) {
        responses.push(
          Promise.resolve({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: ErrorCode.InvalidParams, message: invalid },
          }),
        );
        continue;
      }
      const id = ++this.lastId;
      responses.push(
        new Promise<JSONRPCMessage>((answer) => this.pending.set(id, { exchange, clientId: message.id, answer })),
      );
      this.onmessage?.({ ...message, id }, extra);
    }
    if (responses.length === 0) return { status: 202, body: null, headers: {} };
    const answered = await Promise.all(responses);
    if (exchange.refusal) return exchange.refusal;
    return {
      status: 200,
      body: exchange.serialize(Array.isArray(body) ? answered : answered[0]),
      headers: { "content-type": "application/json" },
    };
  }
}
