/**
 * Query parameters of the agent API (spec: Endpoints → Agent API; Limits), validated with zod. Invalid input
 * throws BAD_USER_INPUT carrying `issues` (`[{ path: ["limit"], message }]`), answered 400 BAD_REQUEST.
 */
import { z } from "zod";
import { AppError, NotFoundError } from "../../shared/errors.ts";
import { requiredOr } from "../../shared/input-fields.ts";
import { parseQuery, queryInteger } from "../../shared/query-params.ts";
import type { RestRequest } from "../../shared/rest-route.ts";

/** Default and maximum `limit` of GET /api/agent/deployments. */
export const DEPLOYMENTS_LIMIT = { default: 10, min: 1, max: 50 } as const;

/** One problem with the request's parameters; `path` names the parameter. */
export interface AgentIssue {
  path: Array<string | number>;
  message: string;
}

/**
 * An id argument of the agent API, the same rule (and words) on the REST query and as an MCP tool's argument:
 * required, not empty.
 */
export function agentId() {
  return z.string(requiredOr("a string")).min(1, "Must not be empty");
}

const applicationId = agentId().meta({ description: "Id of an application visible to the token's owner." });

const { min, max } = DEPLOYMENTS_LIMIT;

/** Query of GET /api/agent/application: validates requests and is documented in the OpenAPI document. */
export const applicationSchema = z.object({ applicationId });
/** Query of GET /api/agent/deployments (`limit` is text on the wire, documented as the integer it must spell). */
export const deploymentsSchema = z.object({
  applicationId,
  limit: queryInteger({ ...DEPLOYMENTS_LIMIT, description: `Number of deployments, ${min} to ${max}.` }),
});

/**
 * Parses `schema` from the request's query (src/shared/query-params.ts: a repeated parameter is refused).
 * @throws AppError BAD_USER_INPUT with `issues`, one per parameter.
 */
export function parseAgentQuery<S extends z.ZodObject>(schema: S, req: RestRequest): z.output<S> {
  const result = parseQuery(schema, req);
  if (result.success) return result.data;
  const issues: AgentIssue[] = result.error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: i.message,
  }));
  const named = [...new Set(issues.map((i) => i.path.join(".")))].join(", ");
  throw new AppError("BAD_USER_INPUT", `Invalid query parameter: ${named}`, { issues });
}

/**
 * A NUL byte, which PostgreSQL rejects in text, cannot be part of any id: such a value is answered like an
 * unknown id instead of reaching the database.
 */
function checkId(id: string): string {
  if (id.includes("\0")) throw new NotFoundError("Application", JSON.stringify(id));
  return id;
}

/** Variables of GET /api/agent/application. @throws AppError BAD_USER_INPUT; NotFoundError for an impossible id. */
export function applicationVariables(req: RestRequest): { applicationId: string } {
  const { applicationId } = parseAgentQuery(applicationSchema, req);
  return { applicationId: checkId(applicationId) };
}

/** Variables of GET /api/agent/deployments (`limit` defaults to 10). @throws as {@link applicationVariables}. */
export function deploymentsVariables(req: RestRequest): { applicationId: string; limit: number } {
  const { applicationId, limit } = parseAgentQuery(deploymentsSchema, req);
  return { applicationId: checkId(applicationId), limit: limit ?? DEPLOYMENTS_LIMIT.default };
}
