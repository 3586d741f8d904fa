/**
 * The read behind the MCP tool `get_deployment` (src/modules/agent/agent.mcp.ts): one deployment found by id with
 * the caller's visibility (its application's; NOT_FOUND otherwise), why it ended and the newest lines of its log.
 * A row of the agent surface that is run in-process only, never registered on HTTP: the agent API's published paths
 * are the spec's. Its operation reads the deployment by reference (`_entities`, the same by-id read with
 * visibility as every other reference).
 */
import { z } from "zod";
import { echoed, NotFoundError } from "../../shared/errors.ts";
import { queryInteger } from "../../shared/query-params.ts";
import type { RestRequest, RestRoute } from "../../shared/rest-route.ts";
import { AgentDeployment } from "./agent.openapi.ts";
import { agentError } from "./agent-errors.ts";
import { agentId, parseAgentQuery } from "./agent-params.ts";

/** Default and largest number of log lines `get_deployment` answers. */
export const DEPLOYMENT_LOG_LINES = { default: 100, max: 500 } as const;

const AGENT_DEPLOYMENT = /* GraphQL */ `
  query AgentDeployment($representations: [_Any!]!) {
    _entities(representations: $representations) {
      ... on Deployment {
        deploymentId: id status title description trigger commitSha errorMessage createdAt startedAt finishedAt
        application { applicationId: id }
        logs { at level text }
      }
    }
  }
`;

const str = z.string();
const LogLine = z.object({
  at: str.meta({ format: "date-time" }),
  level: str.describe("`info`, `warn` or `error`."),
  text: str,
});

/** What `get_deployment` answers. */
const output = AgentDeployment.extend({
  trigger: str.describe("What started it: `manual`, `api`, `push`, `import` or `redeploy`."),
  commitSha: str.nullable(),
  errorMessage: str.nullable().describe("Why it ended `error` or `cancelled`, in words."),
  applicationId: str,
  logLinesTotal: z.int().min(0).describe("Lines in the whole log."),
  logs: z.array(LogLine).describe("The newest lines of the log, oldest of them first (the newest last)."),
});

/** A deployment as the operation reads it. */
interface Entity {
  application: { applicationId: string };
  logs: Array<z.output<typeof LogLine>>;
  [field: string]: unknown;
}

/** Parameters of the row: the deployment's id and the number of log lines (src/shared/query-params.ts's rule). */
const deploymentQuery = z.object({
  deploymentId: agentId(),
  logLines: queryInteger({ min: 1, max: DEPLOYMENT_LOG_LINES.max }),
});

/** The row's parameters; an id holding NUL (no id can) is an unknown deployment. @throws AppError BAD_USER_INPUT. */
function parameters(req: RestRequest): { deploymentId: string; logLines: number } {
  const { deploymentId, logLines } = parseAgentQuery(deploymentQuery, req);
  if (deploymentId.includes("\0")) throw new NotFoundError("Deployment", JSON.stringify(deploymentId));
  return { deploymentId, logLines: logLines ?? DEPLOYMENT_LOG_LINES.default };
}

const route: RestRoute = {
  method: "GET",
  path: "/api/agent/deployment",
  surface: "agent",
  published: false,
  error: agentError,
  operation: AGENT_DEPLOYMENT,
  variables: (req) => ({
    representations: [{ __typename: "Deployment", id: parameters(req).deploymentId }],
  }),
  respond: (data, variables, req) => {
    const [entity] = (data._entities ?? []) as Array<Entity | null>;
    if (!entity) {
      const id = (variables.representations as Array<{ id: string }>)[0]!.id;
      return agentError({ message: `Deployment ${JSON.stringify(echoed(id))} not found` }, 404);
    }
    const { application, logs, ...deployment } = entity;
    const { logLines } = parameters(req);
    return {
      status: 200,
      body: {
        ...deployment,
        applicationId: application.applicationId,
        logLinesTotal: logs.length,
        logs: logs.slice(-logLines),
      },
    };
  },
};

/** The row (run by the MCP tool only) and the JSON shape of its 200 body. */
export const agentDeploymentRow = { route, output } as const;
