/**
 * The tools of Skiff's MCP server (`/mcp`, Model Context Protocol over Streamable HTTP): each declared once by the
 * module that owns its data, in its manifest (`mcpTools`), and run by the transport (src/server/mcp.ts) with the
 * caller it authenticated. A tool holds no domain logic: it runs a REST row of the same module in-process (the same
 * GraphQL operation, compiled read and visibility as the HTTP endpoint), so that a tool's answer is the row's body.
 */
import type { z } from "zod";
import type { RestResponse, RestRoute } from "./rest-route.ts";

/** Runs `route` for the tool's caller with `query` as its query string; answers as the HTTP row would. */
export type McpRowRunner = (route: RestRoute, query: Record<string, string>) => Promise<RestResponse>;

/**
 * One MCP tool. Every tool is read-only, so the transport annotates each `readOnlyHint: true`,
 * `destructiveHint: false`, `openWorldHint: false` (nothing outside Skiff's own database is read).
 */
export interface McpTool {
  /** Tool name, snake case (e.g. `list_projects`). */
  name: string;
  /** Human-readable name. */
  title: string;
  /** What the tool answers, for the model: units, order, bounds, errors. */
  description: string;
  /** The arguments (an object; its JSON Schema is the tool's `inputSchema`). */
  input: z.ZodObject;
  /** The result (an object; its JSON Schema is the tool's `outputSchema`, the answer its `structuredContent`). */
  output: z.ZodObject;
  /**
   * Answers `args` (already checked against `input`) with `run`: a 200 response's body is `output` (an object, or
   * its JSON text as a compiled read answers it: passed on as text, never parsed and serialized again), any other status is a tool error whose body is the row's error body (`{ message, code, issues? }`).
   */
  call(args: Record<string, unknown>, run: McpRowRunner): Promise<RestResponse>;
}
