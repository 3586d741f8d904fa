/**
 * The MCP server at `/mcp` (Model Context Protocol, Streamable HTTP transport, stateless: every POST carries one
 * JSON-RPC message or a batch and is answered on its own, so any instance answers any request; the HTTP side is
 * src/server/mcp-transport.ts, the protocol one SDK `Server` per Skiff server, built at start-up rather than per
 * POST, each POST an exchange of its own), transport only: the tools are
 * the modules' (`mcpTools` in their manifests; src/shared/mcp-tool.ts), each answering a REST row run in-process
 * ({@link runRow}). Authentication is the agent API's (agent tokens in `Authorization: Bearer` or `x-api-key`;
 * account API keys, sessions and anonymous calls answer 401), and so is the rate limit: a tool call counts as one
 * request on the token's one counter, shared with `/api/agent/*` (each of a batch's too); the protocol's other
 * messages (initialize, tools/list, notifications) are authenticated without being counted.
 * `SKIFF_PUBLIC_API_ONLY=true` leaves `/mcp` out unless `SKIFF_MCP=true` (src/config.ts).
 */

import type { IncomingHttpHeaders } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import { GraphQLError } from "graphql";
import { z } from "zod";
import type { Caller } from "../auth/caller.ts";
import { recordCall } from "../modules/audit/index.ts";
import type { Context } from "../modules/context.ts";
import { moduleMcpTools } from "../modules/index.ts";
import { echoed } from "../shared/errors.ts";
import type { McpTool } from "../shared/mcp-tool.ts";
import type { RestResponse } from "../shared/rest-route.ts";
import type { SkiffServer } from "./app.ts";
import { authenticateAgent, RateLimitedError, toHeaders } from "./authenticate.ts";
import { buildContext, withOrigin } from "./context.ts";
import { mcpMethodNotAllowed } from "./format-error.ts";
import { invalidParams, McpExchange, StatelessJsonTransport } from "./mcp-transport.ts";
import { confirmCaller, rememberedContext } from "./remembered-callers.ts";
import { refuseRow, runRow } from "./rest-runner.ts";

/** The annotations of every tool: all of them only read Skiff's own database. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** JSON Schema of a zod object, as MCP's `inputSchema` / `outputSchema` (an object schema). */
function jsonSchema(schema: z.ZodObject, io: "input" | "output"): Tool["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return { ...rest, type: "object" } as Tool["inputSchema"];
}

/** `tools/list`'s answer, built once: every tool with its annotations and schemas. */
const toolList: Tool[] = moduleMcpTools.map((tool) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: jsonSchema(tool.input, "input"),
  outputSchema: jsonSchema(tool.output, "output"),
  annotations: { title: tool.title, ...READ_ONLY },
}));
const toolsByName = new Map(moduleMcpTools.map((tool) => [tool.name, tool]));
/** Each tool's input schema refusing unknown arguments, built once (a zod schema compiles its checks on first use). */
const strictInputs = new Map(moduleMcpTools.map((tool) => [tool, tool.input.strict()]));

/**
 * A tool error: the agent API's error body (`{ message, code, issues? }`) as its text content. Not as structured
 * content, which clients check against the tool's output schema even on errors.
 */
function toolError(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/**
 * The answer of a row's response: a tool error with its error body unless 200. A 200 body is the tool's structured
 * content and, serialized, its text content (MCP 2025-06-18, Tools → Structured Content: a tool with an output
 * schema answers `structuredContent`, and a text block with the same JSON for clients that read only content). A
 * body that is JSON text (a compiled read's, as PostgreSQL wrote it) is not parsed: the text block is that text, and
 * the structured content stands for it in the answer ({@link McpExchange.raw}).
 */
function toolResult(response: RestResponse, exchange: McpExchange<Call>): CallToolResult {
  if (response.status !== 200) {
    const body = typeof response.body === "string" ? (JSON.parse(response.body) as object) : response.body;
    return toolError(body as Record<string, unknown>);
  }
  if (typeof response.body === "string") {
    return {
      content: [{ type: "text", text: exchange.rawString(response.body) }],
      structuredContent: exchange.raw(response.body),
    };
  }
  const body = response.body as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/** Most argument issues a refusal lists (the rest are counted): an answer never grows with a hostile input. */
const MAX_ISSUES = 20;

/**
 * Arguments checked against the tool's input schema; the agent API's 400 body when they are not, with one issue per
 * argument at fault (an unknown argument is named by its own path, as zod's strict check reports it in `keys`), at
 * most {@link MAX_ISSUES} of them, each name repeated as `echoed` repeats a caller's value.
 */
function checkedArguments(tool: McpTool, args: unknown): { args: Record<string, unknown> } | { error: CallToolResult } {
  const result = strictInputs.get(tool)!.safeParse(args ?? {});
  if (result.success) return { args: result.data };
  const listed = result.error.issues.flatMap((i) => {
    const path = i.path.map((p) => (typeof p === "symbol" ? String(p) : typeof p === "string" ? echoed(p) : p));
    if (i.code !== "unrecognized_keys") return [{ path, message: i.message }];
    return i.keys.map((key) => ({ path: [...path, echoed(key)], message: "Unknown argument" }));
  });
  // One issue per argument and words (a value over the range and not a safe integer says the same twice).
  const all = [...new Map(listed.map((i) => [JSON.stringify([i.path, i.message]), i])).values()];
  const issues = all.slice(0, MAX_ISSUES);
  const more = all.length > issues.length ? ` and ${all.length - issues.length} more` : "";
  const named = [...new Set(issues.map((i) => i.path.join(".")))].join(", ");
  return { error: toolError({ message: `Invalid argument: ${named}${more}`, code: "BAD_REQUEST", issues }) };
}

/**
 * Who sends the request: its headers and request id, and for a request that is one tool call, the context its row
 * runs with (the principal authenticated, or remembered and confirmed by the row's own read, `remembered`:
 * src/server/remembered-callers.ts); or the refusal of such a call over the rate limit (which names the token's
 * caller, for the call's audit entry). Tool calls of a batch are authenticated and counted one by one as they run
 * ({@link toolCallContext}).
 */
type McpCaller =
  | { context: Context | null; remembered: boolean; headers: IncomingHttpHeaders; requestId: string }
  | { refused: RateLimitedError; requestId: string };

/** What the tools need of one POST: its caller and the client's address (for the audit entries). */
interface Call {
  caller: McpCaller;
  clientAddress: string;
  /** Tool calls of the POST that reached the tool handler (each writes its own audit entry). */
  toolCallsRun: number;
}

/**
 * The principal of `headers`' agent token, counted against the rate limit when `counted`; null when the token is
 * not valid; `{ refused }` with the rate limit's refusal when a counted request is over it.
 */
async function agentPrincipal(
  services: SkiffServer["services"],
  headers: Headers,
  counted: boolean,
): Promise<Caller | null | { refused: RateLimitedError }> {
  try {
    const principal = await authenticateAgent(services, headers, counted);
    if (principal && counted) principal.activeOrganizationOnly = true;
    return principal;
  } catch (e) {
    if (!(e instanceof RateLimitedError)) throw e;
    return { refused: e };
  }
}

/**
 * The context a tool call of a batch runs with: its own authentication, counted as one request; the tool error of
 * an invalid token; or the rate limit's refusal.
 */
async function toolCallContext(
  server: SkiffServer,
  caller: Extract<McpCaller, { headers: IncomingHttpHeaders }>,
): Promise<{ context: Context } | { error: CallToolResult } | { refused: RateLimitedError }> {
  const principal = await agentPrincipal(server.services, toHeaders(caller.headers), true);
  if (!principal) return { error: toolError({ message: "Missing or invalid credentials", code: "UNAUTHORIZED" }) };
  if ("refused" in principal) return principal;
  return { context: buildContext(server.services, principal, caller.requestId) };
}

/** The SDK's JSON Schema validator (used for elicitation only), built once: it compiles Ajv's vocabularies. */
const validator = new AjvJsonSchemaValidator();

/**
 * A remembered token found refused answers HTTP 401 as any refused credential does, unless it was refused for the
 * rate limit (a tool error): the refusal does not say which, so the token is looked up again (not counted).
 */
async function refuseIfRevoked(
  server: SkiffServer,
  caller: Extract<McpCaller, { headers: IncomingHttpHeaders }>,
  exchange: McpExchange<Call>,
): Promise<void> {
  const principal = await authenticateAgent(server.services, toHeaders(caller.headers), false).catch(() => null);
  if (!principal) exchange.refuse(401, refusalBody());
}

/**
 * Confirms (and counts) the remembered caller of a tool call refused before it reads (its arguments): null when
 * confirmed, the rate limit's refusal when over it; a token no longer valid answers HTTP 401 (`revoked`).
 */
async function confirmRemembered(
  context: Context,
  exchange: McpExchange<Call>,
): Promise<{ refused: RateLimitedError } | "revoked" | null> {
  try {
    await confirmCaller(context);
    return null;
  } catch (e) {
    if (e instanceof RateLimitedError) return { refused: e };
    if (!(e instanceof GraphQLError) || e.extensions.code !== "UNAUTHENTICATED") throw e;
    exchange.refuse(401, refusalBody());
    return "revoked";
  }
}

/**
 * The audit action of a call of tool `name`: `mcp.<tool>`, or `mcp.unknown_tool` for a name no tool has (the name
 * itself, the caller's text, is not written).
 */
function toolAction(name: string): string {
  return `mcp.${toolsByName.has(name) ? name : "unknown_tool"}`;
}

/** Records the entry of a tool call refused before its row ran (its arguments, or its tool unknown): no targets. */
async function recordRefusedCall(context: Context, action: string): Promise<void> {
  await recordCall(context.services, context.log, context, { action, outcome: "refused" });
}

/**
 * The answer to a call of a tool no one has: a protocol error, JSON-RPC -32602 (MCP 2025-11-25, Tools → Error
 * Handling: "Unknown tools"), whose message names the tool as `echoed` repeats a caller's value.
 */
function unknownTool(name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(echoed(name))}`);
}

/**
 * Answers a call of tool `name` whose token is over its rate limit (`refused`) and records its entry as the token's:
 * a known tool with valid arguments is refused by its row ({@link refuseRow}: the ids it names are the entry's
 * targets), any other call before its row. @throws McpError -32602 for an unknown tool, once recorded.
 */
async function rateLimitedCall(
  server: SkiffServer,
  refused: RateLimitedError,
  requestId: string,
  clientAddress: string,
  name: string,
  checked: { args: Record<string, unknown> } | { error: CallToolResult },
): Promise<CallToolResult> {
  const tool = toolsByName.get(name);
  const action = toolAction(name);
  const context = withOrigin(buildContext(server.services, refused.caller, requestId), "MCP", {}, clientAddress);
  const answer = toolError({ message: refused.message, code: "UNAUTHORIZED" });
  if (!tool || !("args" in checked)) {
    await recordRefusedCall(context, action);
    if (!tool) throw unknownTool(name);
    return answer;
  }
  await tool.call(checked.args, (route, query) =>
    refuseRow(route, { params: {}, query, body: undefined, headers: {} }, context, refused, action),
  );
  return answer;
}

/**
 * The MCP server of one Skiff server, answering every POST on `transport`: a tool call runs with its POST's
 * {@link Call}, the state of the exchange its request came in ({@link StatelessJsonTransport.exchangeOf}). Every
 * tool call that reaches a valid token leaves one audit entry (`mcp.<tool>`; docs/audit-log.md), refused ones
 * (arguments, unknown tool, rate limit) included; a token not valid answers HTTP 401 and leaves none.
 */
function mcpServer(server: SkiffServer, transport: StatelessJsonTransport): Server {
  const mcp = new Server(
    { name: "skiff", version: "1.0.0" },
    { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: validator },
  );
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
  mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const exchange = transport.exchangeOf<Call>(extra.requestId);
    if (!exchange) throw new Error(`MCP request ${extra.requestId} has no exchange`);
    exchange.state.toolCallsRun++;
    const { caller, clientAddress } = exchange.state;
    const { name } = request.params;
    const tool = toolsByName.get(name);
    // An unknown tool is answered -32602 once its call is authenticated and recorded as refused.
    const checked = tool
      ? checkedArguments(tool, request.params.arguments)
      : { error: toolError({ message: "Unknown tool", code: "NOT_FOUND" }) };
    if ("refused" in caller) {
      return rateLimitedCall(server, caller.refused, caller.requestId, clientAddress, name, checked);
    }
    const own = caller.context ? { context: caller.context } : await toolCallContext(server, caller);
    if ("error" in own) return own.error;
    if ("refused" in own) return rateLimitedCall(server, own.refused, caller.requestId, clientAddress, name, checked);
    const context = withOrigin(own.context, "MCP", {}, clientAddress);
    if ("error" in checked) {
      // Refused before any read: a remembered token is confirmed (and the call counted) the ordinary way first.
      const confirmed = caller.remembered ? await confirmRemembered(context, exchange) : null;
      if (confirmed === "revoked") return checked.error;
      if (confirmed) return rateLimitedCall(server, confirmed.refused, caller.requestId, clientAddress, name, checked);
      await recordRefusedCall(context, toolAction(name));
      if (!tool) throw unknownTool(name);
      return checked.error;
    }
    const run = (route: Parameters<typeof runRow>[1], query: Record<string, string>) =>
      runRow(server.apollo, route, { params: {}, query, body: undefined, headers: {} }, context, toolAction(name));
    const response = await tool!.call(checked.args, run);
    if (response.status === 401 && caller.remembered) await refuseIfRevoked(server, caller, exchange);
    return toolResult(response, exchange);
  });
  return mcp;
}

/** The body of a refused credential (HTTP 401), as JSON-RPC error and agent API error at once. */
function refusalBody(message = "Missing or invalid credentials: /mcp takes an agent token"): Record<string, unknown> {
  return { jsonrpc: "2.0", error: { code: -32000, message }, id: null, message, code: "UNAUTHORIZED" };
}

/** True when `body` is one JSON-RPC `tools/call` request (not a batch): the message counted against the rate limit. */
function isToolCall(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "tools/call";
}

/**
 * Records a refused entry for each tool call of a batch whose params do not fit `tools/call` (the transport answers
 * those -32602 before any tool runs): every tool call leaves an entry, as a lone one does ({@link recordUnanswered}).
 */
async function recordMisfitsOfBatch(
  services: SkiffServer["services"],
  principal: Caller,
  request: FastifyRequest,
): Promise<void> {
  const misfits = (request.body as unknown[]).filter(
    (m): m is { method: string; params?: { name?: unknown } } =>
      isToolCall(m) && invalidParams(m as { method: string }) !== null,
  );
  if (misfits.length === 0) return;
  const context = withOrigin(buildContext(services, principal, request.id), "MCP", {}, request.ip);
  for (const m of misfits) {
    const name = m.params?.name;
    await recordRefusedCall(context, toolAction(typeof name === "string" ? name : ""));
  }
}

/**
 * Records the entry of a lone tool call the transport refused before the tool handler (params that do not fit, an
 * invalid message or header): counted against the rate limit when authenticated, it is a refused call of its own. A
 * remembered caller, neither confirmed nor counted then, leaves none.
 */
async function recordUnanswered(
  services: SkiffServer["services"],
  caller: McpCaller,
  request: FastifyRequest,
): Promise<void> {
  const principal = "refused" in caller ? caller.refused.caller : caller.remembered ? null : caller.context?.caller;
  if (!principal) return;
  const name = (request.body as { params?: { name?: unknown } }).params?.name;
  const context = withOrigin(buildContext(services, principal, request.id), "MCP", {}, request.ip);
  await recordRefusedCall(context, toolAction(typeof name === "string" ? name : ""));
}

/** Registers `POST /mcp` (and 405 for GET and DELETE: a stateless server keeps no stream or session) on `server`. */
export function registerMcp(server: SkiffServer): void {
  const { app, services } = server;
  const transport = new StatelessJsonTransport();
  const mcp = mcpServer(server, transport);
  const connected = mcp.connect(transport);
  app.post("/mcp", async (request: FastifyRequest, reply: FastifyReply) => {
    const toolCall = isToolCall(request.body);
    const headers = request.headers;
    let caller: McpCaller;
    // A request that is one tool call with a token this process resolved before is confirmed and counted by its
    // row's read statement, as on /api/agent/* (one round trip); every other request is authenticated first, a lone
    // tool call counted as one request (a batch's tool calls are counted as they run).
    // (A tool call whose params do not fit is authenticated and counted the full way, then answered -32602.)
    const remembered =
      toolCall && services.readMode === "compiled" && invalidParams(request.body as { method: string }) === null
        ? rememberedContext(services, request.headers, request.id, "agent", true)
        : null;
    let batchCaller: Caller | null = null;
    if (remembered) caller = { context: remembered, remembered: true, headers, requestId: request.id };
    else {
      const principal = await agentPrincipal(services, toHeaders(headers), toolCall);
      if (!principal) return reply.code(401).send(refusalBody());
      if (Array.isArray(request.body) && !("refused" in principal)) batchCaller = principal;
      caller =
        "refused" in principal
          ? { refused: principal.refused, requestId: request.id }
          : {
              context: toolCall ? buildContext(services, principal, request.id) : null,
              remembered: false,
              headers,
              requestId: request.id,
            };
    }
    await connected;
    const exchange = new McpExchange<Call>({ caller, clientAddress: request.ip, toolCallsRun: 0 });
    const answer = await transport.handle(exchange, request.body, request.headers);
    if (toolCall && exchange.state.toolCallsRun === 0) await recordUnanswered(services, caller, request);
    if (batchCaller) await recordMisfitsOfBatch(services, batchCaller, request);
    reply.code(answer.status).headers(answer.headers);
    return reply.send(answer.body ?? undefined);
  });
  // GET (a server-sent event stream) and DELETE (a session's end) are the transport's; a stateless server answers
  // 405 to them, and to any other method, with `Allow: POST`.
  app.route({
    method: ["GET", "DELETE", "PUT", "PATCH"],
    url: "/mcp",
    handler: async (_request, reply) => mcpMethodNotAllowed(reply),
  });
}
