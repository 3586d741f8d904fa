/**
 * The machine-readable description of the agent API (spec: Versioning): an OpenAPI 3.1 document at version
 * 2.1.0, served at GET /api/agent/openapi.json. Schemas list exactly the documented fields, all required,
 * nullable ones as `["<type>", "null"]`; unknown fields are allowed (adding a field is a minor change).
 */

/** Version of the agent API described here. */
export const AGENT_API_VERSION = "2.1.0";

type Schema = Record<string, unknown>;

const str: Schema = { type: "string" };
const nullableStr: Schema = { type: ["string", "null"] };
const dateTime: Schema = { type: "string", format: "date-time" };
const nullableDateTime: Schema = { type: ["string", "null"], format: "date-time" };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** An object schema whose every property is required. */
function object(properties: Record<string, Schema>, description?: string): Schema {
  return { type: "object", ...(description && { description }), required: Object.keys(properties), properties };
}

function json(schema: Schema, description: string) {
  return { description, content: { "application/json": { schema } } };
}

const errors = {
  "401": { $ref: "#/components/responses/Unauthorized" },
};

const applicationIdParam = {
  name: "applicationId",
  in: "query",
  required: true,
  description: "Id of an application visible to the token's owner.",
  schema: { type: "string", minLength: 1 },
};

/** The OpenAPI 3.1 document, as served. */
export const agentOpenApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Skiff agent API",
    version: AGENT_API_VERSION,
    description:
      "Read-only endpoints over projects, applications and deployments for AI agents. Authenticate with an " +
      "agent token (Settings → AI), sent as `x-api-key` or `Authorization: Bearer`; account API keys are " +
      "rejected. The organization is the token's. Limit: 120 requests per minute per token, shared by every " +
      "client using it; over the limit the answer is 401 without Retry-After. Fields not listed may be added " +
      "later: clients ignore unknown fields.",
  },
  security: [{ agentTokenHeader: [] }, { agentTokenBearer: [] }],
  paths: {
    "/api/agent/projects": {
      get: {
        operationId: "listProjects",
        summary: "Every project visible to the token's owner, with environments and applications",
        responses: {
          "200": json({ type: "array", items: ref("Project") }, "All visible projects (not paginated)."),
          ...errors,
        },
      },
    },
    "/api/agent/application": {
      get: {
        operationId: "getApplication",
        summary: "One application with its project, environment and domains",
        parameters: [applicationIdParam],
        responses: {
          "200": json(ref("Application"), "The application."),
          "400": { $ref: "#/components/responses/BadRequest" },
          ...errors,
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
    },
    "/api/agent/deployments": {
      get: {
        operationId: "listDeployments",
        summary: "Deployments of one application, newest first",
        parameters: [
          applicationIdParam,
          {
            name: "limit",
            in: "query",
            required: false,
            description: "Number of deployments, 1 to 50.",
            schema: { type: "integer", minimum: 1, maximum: 50, default: 10 },
          },
        ],
        responses: {
          "200": json({ type: "array", items: ref("Deployment") }, "Deployments, newest first."),
          "400": { $ref: "#/components/responses/BadRequest" },
          ...errors,
          "404": { $ref: "#/components/responses/NotFound" },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      agentTokenHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "Agent token." },
      agentTokenBearer: { type: "http", scheme: "bearer", description: "Agent token as a bearer token." },
    },
    responses: {
      BadRequest: json(ref("BadRequestError"), "A parameter is missing or out of range."),
      Unauthorized: json(
        ref("Error"),
        "Token missing, revoked, expired or of the wrong kind, membership removed, or rate limit exceeded.",
      ),
      NotFound: json(ref("Error"), "No such application, or not granted to the caller."),
    },
    schemas: {
      Project: object({
        projectId: str,
        name: str,
        description: nullableStr,
        createdAt: dateTime,
        environments: {
          type: "array",
          items: object({
            environmentId: str,
            name: str,
            applications: { type: "array", items: ref("ProjectApplication") },
          }),
        },
      }),
      ProjectApplication: object({
        applicationId: str,
        name: str,
        appName: str,
        applicationStatus: nullableStr,
        createdAt: dateTime,
      }),
      Application: object({
        applicationId: str,
        name: str,
        appName: str,
        applicationStatus: nullableStr,
        buildType: nullableStr,
        sourceType: nullableStr,
        createdAt: dateTime,
        project: object({ projectId: str, name: str }),
        environment: object({ environmentId: str, name: str }),
        domains: {
          type: "array",
          items: object({ host: str, port: { type: ["number", "null"] }, https: { type: ["boolean", "null"] } }),
        },
      }),
      Deployment: object(
        {
          deploymentId: str,
          status: nullableStr,
          title: str,
          description: nullableStr,
          createdAt: dateTime,
          startedAt: nullableDateTime,
          finishedAt: nullableDateTime,
        },
        "`status` is null before the deployment is picked up; `done` means success.",
      ),
      Error: object({ message: str, code: { type: "string", enum: ["UNAUTHORIZED", "NOT_FOUND"] } }),
      BadRequestError: object({
        message: str,
        code: { const: "BAD_REQUEST" },
        issues: {
          type: "array",
          items: object({
            path: { type: "array", items: { type: ["string", "integer"] }, description: "Names the parameter." },
            message: str,
          }),
        },
      }),
    },
  },
} as const;
