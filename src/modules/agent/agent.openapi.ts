/**
 * The contract of the agent API (spec: Versioning): OpenAPI 3.1 at version 2.1.0, generated from the agent rows'
 * declarations (src/shared/openapi) and served at GET /api/agent/openapi.json. Schemas list exactly the
 * documented fields, all required, nullable ones as `T | null`; unknown fields are allowed (adding a field is a
 * minor change), so response objects are loose.
 */
import { z } from "zod";
import { RETRY_AFTER_SECONDS } from "../../shared/database-unavailable.ts";
import type { DocumentInfo } from "../../shared/openapi/generate.ts";
import type { ResponseDoc } from "../../shared/openapi/route-doc.ts";

/** Version of the agent API described here. */
export const AGENT_API_VERSION = "2.1.0";

const str = z.string();
const dateTime = z.string().meta({ format: "date-time" });

/** An application inside a project listing. */
const ProjectApplication = z
  .looseObject({
    applicationId: str,
    name: str,
    appName: str,
    applicationStatus: str.nullable(),
    createdAt: dateTime,
  })
  .meta({ id: "ProjectApplication" });

/** A project with its environments and their applications. */
export const AgentProject = z
  .looseObject({
    projectId: str,
    name: str,
    description: str.nullable(),
    createdAt: dateTime,
    environments: z.array(z.looseObject({ environmentId: str, name: str, applications: z.array(ProjectApplication) })),
  })
  .meta({ id: "Project" });

/** One application with its project, environment and domains. */
export const AgentApplication = z
  .looseObject({
    applicationId: str,
    name: str,
    appName: str,
    applicationStatus: str.nullable(),
    buildType: str.nullable(),
    sourceType: str.nullable(),
    createdAt: dateTime,
    project: z.looseObject({ projectId: str, name: str }),
    environment: z.looseObject({ environmentId: str, name: str }),
    domains: z.array(z.looseObject({ host: str, port: z.number().nullable(), https: z.boolean().nullable() })),
  })
  .meta({ id: "Application" });

/** One deployment. */
export const AgentDeployment = z
  .looseObject({
    deploymentId: str,
    status: str.nullable(),
    title: str,
    description: str.nullable(),
    createdAt: dateTime,
    startedAt: dateTime.nullable(),
    finishedAt: dateTime.nullable(),
  })
  .meta({
    id: "Deployment",
    description: "`status` is null before the deployment is picked up; `done` means success.",
  });

const AgentErrorBody = z
  .looseObject({ message: str, code: z.enum(["UNAUTHORIZED", "NOT_FOUND"]) })
  .meta({ id: "Error" });

const BadRequestErrorBody = z
  .looseObject({
    message: str,
    code: z.literal("BAD_REQUEST"),
    issues: z.array(
      z.looseObject({
        path: z.array(z.union([str, z.int()])).meta({ description: "Names the parameter." }),
        message: str,
      }),
    ),
  })
  .meta({ id: "BadRequestError" });

const UnavailableErrorBody = z
  .looseObject({ message: str, code: z.literal("SERVICE_UNAVAILABLE") })
  .meta({ id: "UnavailableError" });

/** Documented error responses of the agent endpoints. */
export const agentErrors = {
  "400": { description: "A parameter is missing or out of range.", schema: BadRequestErrorBody },
  "401": {
    description: "Token missing, revoked, expired or of the wrong kind, membership removed, or rate limit exceeded.",
    schema: AgentErrorBody,
  },
  "404": { description: "No such application, or not granted to the caller.", schema: AgentErrorBody },
  "503": {
    description: "Skiff's database cannot be reached for now: retry after `Retry-After` seconds.",
    schema: UnavailableErrorBody,
    headers: { "Retry-After": `Seconds to wait before retrying (${RETRY_AFTER_SECONDS}).` },
  },
} satisfies Record<string, ResponseDoc>;

/** Fixed parts of the agent document. */
export const agentDocumentInfo: DocumentInfo = {
  title: "Skiff agent API",
  version: AGENT_API_VERSION,
  description:
    "Read-only endpoints over projects, applications and deployments for AI agents. Authenticate with an " +
    "agent token (Settings → AI), sent as `x-api-key` or `Authorization: Bearer`; account API keys are " +
    "rejected. The organization is the token's. Limit: 120 requests per minute per token, shared by every " +
    "client using it; over the limit the answer is 401 without Retry-After. While Skiff's database cannot be " +
    "reached, every endpoint answers 503 `SERVICE_UNAVAILABLE` with Retry-After. Fields not listed may be added " +
    "later: clients ignore unknown fields. The same reads are an MCP server at `/mcp` (Streamable HTTP; tools " +
    "list_projects, get_application, list_deployments, get_deployment, whoami; same token and rate-limit counter), " +
    "which is not in the spec's published list: with SKIFF_PUBLIC_API_ONLY=true it is served only when SKIFF_MCP=true.",
  defaultSecurity: "agent",
  security: { agent: ["agentTokenHeader", "agentTokenBearer"], none: [] },
  securitySchemes: {
    agentTokenHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "Agent token." },
    agentTokenBearer: { type: "http", scheme: "bearer", description: "Agent token as a bearer token." },
  },
};
