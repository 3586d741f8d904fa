/**
 * Who am I (every credential): `GET /api/whoami` for sessions and account API keys, `GET /api/agent/whoami` (and the
 * MCP tool `whoami`) for agent tokens — one GraphQL operation on `viewer`, whose `credential` says what the
 * request's credential is and what it reaches (schema/agent.graphql). Never the secret or its hash.
 */
import { z } from "zod";
import type { RestRoute } from "../../shared/rest-route.ts";
import { agentErrors } from "./agent.openapi.ts";
import { agentError } from "./agent-errors.ts";

const WHOAMI = /* GraphQL */ `
  query Whoami {
    viewer {
      user { userId: id email name }
      organization: activeOrganization { organizationId: id name }
      role
      credential {
        kind name prefix createdAt lastUsedAt expiresAt
        grants { projectIds applicationIds }
        surfaces
      }
    }
  }
`;

const str = z.string();
const dateTime = str.meta({ format: "date-time" });

/** The body of both whoami endpoints (and the `whoami` tool's answer). */
export const Whoami = z
  .looseObject({
    user: z.looseObject({ userId: str, email: str, name: str }).describe("The person the credential belongs to."),
    organization: z
      .looseObject({ organizationId: str, name: str })
      .nullable()
      .describe("The organization the request acts on: the token's or key's, or a session's active one."),
    role: z.enum(["owner", "admin", "member"]).nullable().describe("Role in `organization`; null without one."),
    credential: z.looseObject({
      kind: z.enum(["session", "api_key", "agent_token"]),
      name: str.nullable().describe("An API key's name; null for other kinds."),
      prefix: str.nullable().describe("The secret's first characters, as the dashboard shows them; null for sessions."),
      createdAt: dateTime,
      lastUsedAt: dateTime
        .nullable()
        .describe("Previous use before this request (sessions: last refresh); null: none."),
      expiresAt: dateTime.nullable().describe("null: does not expire."),
      grants: z
        .looseObject({ projectIds: z.array(str), applicationIds: z.array(str) })
        .nullable()
        .describe("What a member limited by grants sees; null when the role sees the whole organization."),
      surfaces: z
        .array(z.enum(["graphql", "rest", "agent", "mcp"]))
        .describe("Where the credential is accepted: `/graphql`, the REST paths, `/api/agent/*`, `/mcp`."),
    }),
  })
  .meta({ id: "Whoami" });

const { 401: unauthorized } = agentErrors;

/**
 * `GET /api/agent/whoami` (agent tokens only, in the agent document) and `GET /api/whoami`. Neither is in the spec's
 * published list (its agent API is three endpoints): both are hidden with SKIFF_PUBLIC_API_ONLY=true.
 */
export const whoamiRoutes: readonly RestRoute[] = [
  {
    method: "GET",
    path: "/api/agent/whoami",
    surface: "agent",
    published: false,
    error: agentError,
    doc: {
      document: "agent",
      operationId: "whoami",
      summary: "The agent token of the request: its owner, organization, role, grants and surfaces; never the secret",
      description:
        "Not in the spec's published list (its agent API is the three endpoints above): with SKIFF_PUBLIC_API_ONLY=true this path answers 404.",
      responses: { "200": { description: "The token and its owner.", schema: Whoami }, "401": unauthorized },
    },
    operation: WHOAMI,
    variables: () => ({}),
    bodyAt: ["viewer"],
  },
  {
    method: "GET",
    path: "/api/whoami",
    surface: "rest",
    // Not in the spec's published list: hidden with SKIFF_PUBLIC_API_ONLY=true, as the dashboard's paths are.
    published: false,
    error: agentError,
    operation: WHOAMI,
    variables: () => ({}),
    bodyAt: ["viewer"],
  },
];
