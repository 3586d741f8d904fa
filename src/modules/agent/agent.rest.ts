/**
 * Route-table rows of the read-only agent API (spec: Endpoints → Agent API; Authentication → Agent API;
 * Versioning). Each endpoint runs a named GraphQL operation on the same compiled reads as /graphql
 * (visibility included: the organization is the token's, members see only granted projects and services),
 * whose aliases spell the documented body (ids as `projectId`, `environmentId`, `applicationId`,
 * `deploymentId`; timestamps as the `DateTime` scalar's ISO 8601 text). The OpenAPI document is served without credentials.
 * The pre-2.0 spellings `/api/agentTools.<procedure>` are deliberately not registered (404).
 */
import { z } from "zod";
import { generateOpenApiDocument } from "../../shared/openapi/generate.ts";
import { documentedRows } from "../../shared/openapi/rows.ts";
import type { AnyRestRoute, RestRoute } from "../../shared/rest-route.ts";
import { AgentApplication, AgentDeployment, AgentProject, agentDocumentInfo, agentErrors } from "./agent.openapi.ts";
import { agentError } from "./agent-errors.ts";
import { applicationSchema, applicationVariables, deploymentsSchema, deploymentsVariables } from "./agent-params.ts";
import { whoamiRoutes } from "./whoami.rest.ts";

/** Projects per page while the runner follows the connection to its end. */
const PROJECTS_PAGE_SIZE = 100;

// The operations spell the documented bodies with aliases, in the documented order; each row's body is the value
// at its `bodyAt`, selected last at each level (src/server/rest-bodies.ts).
const AGENT_PROJECTS = /* GraphQL */ `
  query AgentProjects($first: Int!, $after: String) {
    projects(first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      nodes {
        projectId: id name description createdAt
        environments {
          environmentId: id name
          applications { applicationId: id name appName applicationStatus createdAt }
        }
      }
    }
  }
`;

const AGENT_APPLICATION = /* GraphQL */ `
  query AgentApplication($applicationId: ID!) {
    application(id: $applicationId) {
      applicationId: id name appName applicationStatus buildType sourceType createdAt
      project { projectId: id name }
      environment { environmentId: id name }
      domains { host port https }
    }
  }
`;

const AGENT_DEPLOYMENTS = /* GraphQL */ `
  query AgentDeployments($applicationId: ID!, $limit: Int!) {
    application(id: $applicationId) {
      deployments(first: $limit) {
        deploymentId: id status title description createdAt startedAt finishedAt
      }
    }
  }
`;

const agentRow = { method: "GET", surface: "agent", published: true, error: agentError } as const;

const { 400: badRequest, 401: unauthorized, 404: notFound, 503: unavailable } = agentErrors;

/** The three agent endpoints, each declaring its contract (document `agent`). */
const agentApiRows: readonly RestRoute[] = [
  {
    ...agentRow,
    path: "/api/agent/projects",
    doc: {
      document: "agent",
      operationId: "listProjects",
      summary: "Every project visible to the token's owner, with environments and applications",
      responses: {
        "200": { description: "All visible projects (not paginated).", schema: z.array(AgentProject) },
        "401": unauthorized,
        "503": unavailable,
      },
    },
    operation: AGENT_PROJECTS,
    variables: () => ({ first: PROJECTS_PAGE_SIZE }),
    followPages: { connection: ["projects"], cursorVariable: "after" },
    bodyAt: ["projects", "nodes"],
  },
  {
    ...agentRow,
    path: "/api/agent/application",
    doc: {
      document: "agent",
      operationId: "getApplication",
      summary: "One application with its project, environment and domains",
      query: applicationSchema,
      responses: {
        "200": { description: "The application.", schema: AgentApplication },
        "400": badRequest,
        "401": unauthorized,
        "404": notFound,
        "503": unavailable,
      },
    },
    operation: AGENT_APPLICATION,
    variables: applicationVariables,
    bodyAt: ["application"],
  },
  {
    ...agentRow,
    path: "/api/agent/deployments",
    doc: {
      document: "agent",
      operationId: "listDeployments",
      summary: "Deployments of one application, newest first",
      query: deploymentsSchema,
      responses: {
        "200": { description: "Deployments, newest first.", schema: z.array(AgentDeployment) },
        "400": badRequest,
        "401": unauthorized,
        "404": notFound,
        "503": unavailable,
      },
    },
    operation: AGENT_DEPLOYMENTS,
    variables: deploymentsVariables,
    bodyAt: ["application", "deployments"],
  },
];

/**
 * The agent API's OpenAPI 3.1 document, generated from the rows' declarations: every row, or (`publicOnly`) the
 * published ones, which a SKIFF_PUBLIC_API_ONLY server answers alone. Each built once, on first use.
 */
const agentOpenApiDocuments = new Map<boolean, Record<string, unknown>>();
function agentOpenApiDocument(publicOnly: boolean): Record<string, unknown> {
  let document = agentOpenApiDocuments.get(publicOnly);
  if (!document) {
    const rows = documentedRows([...agentApiRows, ...whoamiRoutes], "agent", publicOnly);
    document = generateOpenApiDocument(agentDocumentInfo, rows);
    agentOpenApiDocuments.set(publicOnly, document);
  }
  return document;
}

/**
 * The agent row of `path` (`/api/agent/projects`, `/application`, `/deployments`, `/whoami`), as the MCP tools run it.
 * @throws Error for any other path (a programming error).
 */
export function agentApiRow(path: string): RestRoute {
  const row = [...agentApiRows, ...whoamiRoutes].find((r) => r.path === path);
  if (!row) throw new Error(`No agent row ${path}`);
  return row;
}

/** The agent endpoints, whoami and the OpenAPI document, in registration order. */
export const agentRoutes: readonly AnyRestRoute[] = [
  ...agentApiRows,
  ...whoamiRoutes,
  {
    method: "GET",
    path: "/api/agent/openapi.json",
    published: true,
    serve: (_req, publicOnly) => ({ status: 200, body: agentOpenApiDocument(publicOnly) }),
  },
];
