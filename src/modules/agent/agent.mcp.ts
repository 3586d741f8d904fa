/**
 * The tools of the MCP server (`/mcp`; spec: Agent API, served over the Model Context Protocol): the agent API's
 * reads for an assistant, authenticated and rate limited as `/api/agent/*` (one counter per token; a tool call counts
 * as one request). Each tool runs a row of this module in-process — the same GraphQL operation, compiled read and
 * visibility as the HTTP endpoint — so `list_projects`, `get_application`, `list_deployments` and `whoami` answer
 * exactly the bodies of `GET /api/agent/projects`, `/application`, `/deployments` and `/whoami` (lists wrapped in an
 * object: MCP's structured content is an object). No tool answers a secret: the rows select none.
 */
import { z } from "zod";
import type { McpTool } from "../../shared/mcp-tool.ts";
import { integerRangeMessage } from "../../shared/query-params.ts";
import type { RestResponse } from "../../shared/rest-route.ts";
import { AgentApplication, AgentDeployment, AgentProject } from "./agent.openapi.ts";
import { agentApiRow as agentRow } from "./agent.rest.ts";
import { agentDeploymentRow, DEPLOYMENT_LOG_LINES } from "./agent-deployment.row.ts";
import { agentId, DEPLOYMENTS_LIMIT } from "./agent-params.ts";
import { Whoami } from "./whoami.rest.ts";

const applicationId = agentId().describe("Id of an application visible to the token's owner (`app_…`).");

/**
 * An integer argument from `min` to `max`, refused in the words the REST endpoint's query parameter uses (a JSON
 * number needs no word on its spelling).
 */
function integerArgument(min: number, max: number) {
  const error = integerRangeMessage(min, max);
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/**
 * A 200 list body wrapped as `{ [key]: list }`; any other response as it is. A compiled read's body (its JSON text)
 * is wrapped as text, not parsed: the transport answers it as it is (src/server/mcp.ts).
 */
function wrapped(key: string, response: RestResponse): RestResponse {
  if (response.status !== 200) return response;
  const body = typeof response.body === "string" ? response.body : JSON.stringify(response.body);
  return { status: 200, body: `{${JSON.stringify(key)}:${body}}` };
}

const { min, max } = DEPLOYMENTS_LIMIT;

/** The five read-only tools, in the order `tools/list` names them. */
export const agentMcpTools: readonly McpTool[] = [
  {
    name: "list_projects",
    title: "List projects",
    description:
      "Every project visible to the token's owner (a member limited by grants sees only granted projects and " +
      "services), with its environments and their applications, oldest project first. Same data as GET /api/agent/projects.",
    input: z.object({}),
    output: z.object({ projects: z.array(AgentProject) }),
    call: async (_args, run) => wrapped("projects", await run(agentRow("/api/agent/projects"), {})),
  },
  {
    name: "get_application",
    title: "Get an application",
    description:
      "One application with its project, environment and domains. NOT_FOUND when the id is unknown, in another " +
      "organization or not granted. Same data as GET /api/agent/application.",
    input: z.object({ applicationId }),
    output: AgentApplication,
    call: async (args, run) => run(agentRow("/api/agent/application"), { applicationId: String(args.applicationId) }),
  },
  {
    name: "list_deployments",
    title: "List deployments",
    description:
      `Deployments of one application, newest first: \`limit\` of them (${min} to ${max}, default ` +
      `${DEPLOYMENTS_LIMIT.default}). \`status\` is null before a deployment is picked up; \`done\` means success. ` +
      "NOT_FOUND for an application that is not visible. Same data as GET /api/agent/deployments.",
    input: z.object({
      applicationId,
      limit: integerArgument(min, max)
        .optional()
        .describe(`Number of deployments, ${min} to ${max}; default ${DEPLOYMENTS_LIMIT.default}.`),
    }),
    output: z.object({ deployments: z.array(AgentDeployment) }),
    call: async (args, run) => {
      const query: Record<string, string> = { applicationId: String(args.applicationId) };
      if (args.limit !== undefined) query.limit = String(args.limit);
      return wrapped("deployments", await run(agentRow("/api/agent/deployments"), query));
    },
  },
  {
    name: "get_deployment",
    title: "Get a deployment and its log",
    description:
      "One deployment with why it ended (`errorMessage`) and the newest `logLines` lines of its log (1 to " +
      `${DEPLOYMENT_LOG_LINES.max}, default ${DEPLOYMENT_LOG_LINES.default}), oldest of them first and the newest ` +
      "last; `logLinesTotal` counts every line. NOT_FOUND when the deployment's application is not visible.",
    input: z.object({
      deploymentId: agentId().describe("Id of a deployment (`dpl_…`), as list_deployments gives it."),
      logLines: integerArgument(1, DEPLOYMENT_LOG_LINES.max)
        .optional()
        .describe(
          `Newest log lines to return, 1 to ${DEPLOYMENT_LOG_LINES.max}; default ${DEPLOYMENT_LOG_LINES.default}.`,
        ),
    }),
    output: agentDeploymentRow.output,
    call: async (args, run) => {
      const query: Record<string, string> = { deploymentId: String(args.deploymentId) };
      if (args.logLines !== undefined) query.logLines = String(args.logLines);
      return run(agentDeploymentRow.route, query);
    },
  },
  {
    name: "whoami",
    title: "Who am I",
    description:
      "The agent token this request used (prefix, creation, last recorded use, expiry; never the secret), its " +
      "owner, organization and role, the projects and services a limited member was granted, and the surfaces the " +
      "token reaches. Same data as GET /api/agent/whoami.",
    input: z.object({}),
    output: Whoami,
    call: async (_args, run) => run(agentRow("/api/agent/whoami"), {}),
  },
];
