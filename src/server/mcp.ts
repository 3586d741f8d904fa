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
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import { GraphQLError } from "graphql";
import { z } from "zod";
import type { Caller } from "../auth/caller.ts";
import type { Context } from "../modules/context.ts";
import { moduleMcpTools } from "../modules/index.ts";
import type { McpTool } from "../shared/mcp-tool.ts";
import type { RestResponse } from "../shared/rest-route.ts";
import type { SkiffServer } from "./app.ts";
import { authenticateAgent, toHeaders } from "./authenticate.ts";
import { buildContext, withOrigin } from "./context.ts";
import { invalidParams, McpExchange, StatelessJsonTransport } from "./mcp-transport.ts";
import { confirmCaller, rememberedContext } from "./remembered-callers.ts";
import { runRow } from "./rest-runner.ts";

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
    return { content: [{ type: "text", text: response.body }], structuredContent: exchange.raw(response.body) };
  }
  const body = response.body as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/** Arguments checked against the tool's input schema; the agent API's 400 body when they are not. */
function checkedArguments(tool: McpTool, args: unknown): { args: Record<string, unknown> } | { error: CallToolResult } {
  const result = strictInputs.get(tool)!.safeParse(args ?? {});
  if (result.success) return { args: result.data };
  const issues = result.error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: i.message,
  }));
  const named = [...new Set(issues.map((i) => i.path.join(".")))].join(", ");
  return { error: toolError({ message: `Invalid argument: ${named}`, code: "BAD_REQUEST", issues }) };
}

/**
 * Who sends the request: its headers and request id, and for a request that is one tool call, the context its row
 * runs with (the principal authenticated, or remembered and confirmed by the row's own read, `remembered`:
 * src/server/remembered-callers.ts); or the refusal of such a call over the rate limit. Tool calls of a batch are
 * authenticated and counted one by one as they run ({@link toolCallContext}).
 */
type McpCaller =
  | { context: Context | null; remembered: boolean; headers: IncomingHttpHeaders; requestId: string }
  | { refused: string };

/** What the tools need of one POST: its caller and the client's address (for the audit entries). */
interface Call {
  caller: McpCaller;
  clientAddress: string;
}

/**
 * The principal of `headers`' agent token, counted against the rate limit when `counted`; null when the token is
 * not valid; `{ refused }` with the rate limit's message when a counted request is over it.
 */
async function agentPrincipal(
  services: SkiffServer["services"],
  headers: Headers,
  counted: boolean,
): Promise<Caller | null | { refused: string }> {
  try {
    const principal = await authenticateAgent(services, headers, counted);
    if (principal && counted) principal.activeOrganizationOnly = true;
    return principal;
  } catch (e) {
    if (!(e instanceof GraphQLError) || e.extensions.code !== "UNAUTHENTICATED") throw e;
    return { refused: e.message };
  }
}

/** The context a tool call of a batch runs with: its own authentication, counted as one request; or its refusal. */
async function toolCallContext(
  server: SkiffServer,
  caller: Extract<McpCaller, { requestId: string }>,
): Promise<{ context: Context } | { error: CallToolResult }> {
  const principal = await agentPrincipal(server.services, toHeaders(caller.headers), true);
  if (!principal) return { error: toolError({ message: "Missing or invalid credentials", code: "UNAUTHORIZED" }) };
  if ("refused" in principal) return { error: toolError({ message: principal.refused, code: "UNAUTHORIZED" }) };
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
  caller: Extract<McpCaller, { requestId: string }>,
  exchange: McpExchange<Call>,
): Promise<void> {
  const principal = await authenticateAgent(server.services, toHeaders(caller.headers), false).catch(() => null);
  if (!principal) exchange.refuse(401, refusalBody());
}

/**
 * Confirms (and counts) the remembered caller of a tool call that reads nothing; null when confirmed, else the tool
 * error of its refusal (the answer is HTTP 401 when the token is no longer valid: {@link refuseIfRevoked}).
 */
async function confirmRemembered(
  server: SkiffServer,
  caller: Extract<McpCaller, { requestId: string }>,
  context: Context,
  exchange: McpExchange<Call>,
): Promise<CallToolResult | null> {
  try {
    await confirmCaller(context);
    return null;
  } catch (e) {
    if (!(e instanceof GraphQLError) || e.extensions.code !== "UNAUTHENTICATED") throw e;
    await refuseIfRevoked(server, caller, exchange);
    return toolError({ message: e.message, code: "UNAUTHORIZED" });
  }
}

/**
 * The MCP server of one Skiff server, answering every POST on `transport`: a tool call runs with its POST's
 * {@link Call}, the state of the exchange its request came in ({@link StatelessJsonTransport.exchangeOf}).
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
    const { caller, clientAddress } = exchange.state;
    if ("refused" in caller) return toolError({ message: caller.refused, code: "UNAUTHORIZED" });
    const own = caller.context ? { context: caller.context } : await toolCallContext(server, caller);
    if ("error" in own) return own.error;
    const { context } = own;
    const tool = toolsByName.get(request.params.name);
    const checked = tool
      ? checkedArguments(tool, request.params.arguments)
      : { error: toolError({ message: `Unknown tool ${JSON.stringify(request.params.name)}`, code: "NOT_FOUND" }) };
    if ("error" in checked) {
      // Refused before any read: a remembered token is confirmed (and the call counted) the ordinary way first.
      if (caller.remembered) return (await confirmRemembered(server, caller, context, exchange)) ?? checked.error;
      return checked.error;
    }
    const run = (route: Parameters<typeof runRow>[1], query: Record<string, string>) =>
      runRow(
        server.apollo,
        route,
        { params: {}, query, body: undefined, headers: {} },
        withOrigin(context, "MCP", {}, clientAddress),
      );
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
    if (remembered) caller = { context: remembered, remembered: true, headers, requestId: request.id };
    else {
      const principal = await agentPrincipal(services, toHeaders(headers), toolCall);
      if (!principal) return reply.code(401).send(refusalBody());
      caller =
        "refused" in principal
          ? principal
          : {
              context: toolCall ? buildContext(services, principal, request.id) : null,
              remembered: false,
              headers,
              requestId: request.id,
            };
    }
    await connected;
    const answer = await transport.handle(
      new McpExchange<Call>({ caller, clientAddress: request.ip }),
      request.body,
      request.headers,
    );
    reply.code(answer.status).headers(answer.headers);
    return reply.send(answer.body ?? undefined);
  });
  app.route({
    method: ["GET", "DELETE"],
    url: "/mcp",
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header("allow", "POST")
        .send({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: a stateless server, use POST" },
          id: null,
        }),
  });
}
