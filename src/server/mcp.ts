/**
 * The MCP server at `/mcp` (Model Context Protocol, Streamable HTTP transport, stateless: every POST carries one
 * JSON-RPC message and is answered on its own, so any instance answers any request), transport only: the tools are
 * the modules' (`mcpTools` in their manifests; src/shared/mcp-tool.ts), each answering a REST row run in-process
 * ({@link runRow}). Authentication is the agent API's (agent tokens in `Authorization: Bearer` or `x-api-key`;
 * account API keys, sessions and anonymous calls answer 401), and so is the rate limit: a tool call counts as one
 * request on the token's one counter, shared with `/api/agent/*`; the protocol's other messages (initialize,
 * tools/list, notifications) are authenticated without being counted. `SKIFF_PUBLIC_API_ONLY=true` leaves `/mcp`
 * out unless `SKIFF_MCP=true` (src/config.ts).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { FastifyReply, FastifyRequest } from "fastify";
import { GraphQLError } from "graphql";
import { z } from "zod";
import type { Principal } from "../modules/access/index.ts";
import { authenticateAgent } from "../modules/agent/index.ts";
import { moduleMcpTools } from "../modules/index.ts";
import type { McpTool } from "../shared/mcp-tool.ts";
import type { RestResponse } from "../shared/rest-route.ts";
import type { SkiffServer } from "./app.ts";
import { toHeaders } from "./authenticate.ts";
import { buildContext, withOrigin } from "./context.ts";
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

/**
 * A tool error: the agent API's error body (`{ message, code, issues? }`) as its text content. Not as structured
 * content, which clients check against the tool's output schema even on errors.
 */
function toolError(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/** The answer of a row's response: its body (an object) on 200, a tool error with its error body otherwise. */
function toolResult(response: RestResponse): CallToolResult {
  const body = response.body as Record<string, unknown>;
  if (response.status !== 200) return toolError(body);
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}

/** Arguments checked against the tool's input schema; the agent API's 400 body when they are not. */
function checkedArguments(tool: McpTool, args: unknown): { args: Record<string, unknown> } | { error: CallToolResult } {
  const result = tool.input.strict().safeParse(args ?? {});
  if (result.success) return { args: result.data };
  const issues = result.error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: i.message,
  }));
  const named = [...new Set(issues.map((i) => i.path.join(".")))].join(", ");
  return { error: toolError({ message: `Invalid argument: ${named}`, code: "BAD_REQUEST", issues }) };
}

/** Who sends the request: the principal, or the refusal of a tool call over the rate limit. */
type McpCaller = { principal: Principal } | { refused: string };

/** One MCP server for one request of `caller`. */
function mcpServer(server: SkiffServer, caller: McpCaller, requestId: string, clientAddress: string): Server {
  const mcp = new Server({ name: "skiff", version: "1.0.0" }, { capabilities: { tools: { listChanged: false } } });
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));
  mcp.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolsByName.get(request.params.name);
    if (!tool) return toolError({ message: `Unknown tool ${JSON.stringify(request.params.name)}`, code: "NOT_FOUND" });
    if ("refused" in caller) return toolError({ message: caller.refused, code: "UNAUTHORIZED" });
    const checked = checkedArguments(tool, request.params.arguments);
    if ("error" in checked) return checked.error;
    const run = (route: Parameters<typeof runRow>[1], query: Record<string, string>) =>
      runRow(
        server.apollo,
        route,
        { params: {}, query, body: undefined, headers: {} },
        withOrigin(buildContext(server.services, caller.principal, requestId), "MCP", {}, clientAddress),
      );
    return toolResult(await tool.call(checked.args, run));
  });
  return mcp;
}

/** True when `body` is a JSON-RPC `tools/call` request (the only message counted against the rate limit). */
function isToolCall(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "tools/call";
}

/** Registers `POST /mcp` (and 405 for GET and DELETE: a stateless server keeps no stream or session) on `server`. */
export function registerMcp(server: SkiffServer): void {
  const { app, services } = server;
  const refuse = (reply: FastifyReply, status: number, message: string, code: string) =>
    reply.code(status).send({ jsonrpc: "2.0", error: { code: -32000, message }, id: null, message, code });
  app.post("/mcp", async (request: FastifyRequest, reply: FastifyReply) => {
    let caller: McpCaller;
    try {
      const principal = await authenticateAgent(services, toHeaders(request.headers), isToolCall(request.body));
      if (!principal)
        return refuse(reply, 401, "Missing or invalid credentials: /mcp takes an agent token", "UNAUTHORIZED");
      caller = { principal };
    } catch (e) {
      if (!(e instanceof GraphQLError) || e.extensions.code !== "UNAUTHENTICATED") throw e;
      caller = { refused: e.message };
    }
    const mcp = mcpServer(server, caller, request.id, request.ip);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    // Closing must not reject unhandled (Node exits on an unhandled rejection): a failure is only logged.
    reply.raw.on("close", () => {
      const logFailure = (error: unknown) => services.log.warn({ err: error }, "closing an MCP request failed");
      transport.close().catch(logFailure);
      mcp.close().catch(logFailure);
    });
    await mcp.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
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
