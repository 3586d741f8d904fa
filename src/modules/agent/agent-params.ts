/**
 * Query parameters of the agent API (spec: Endpoints → Agent API; Limits), validated with zod. Invalid input
 * throws BAD_USER_INPUT carrying `issues` (`[{ path: ["limit"], message }]`), answered 400 BAD_REQUEST.
 */
import { z } from "zod";
import { AppError, NotFoundError } from "../../shared/errors.ts";
import { queryParam, type RestRequest } from "../../shared/rest-route.ts";

/** Default and maximum `limit` of GET /api/agent/deployments. */
export const DEPLOYMENTS_LIMIT = { default: 10, min: 1, max: 50 } as const;

/** One problem with the request's parameters; `path` names the parameter. */
export interface AgentIssue {
  path: Array<string | number>;
  message: string;
}

const applicationId = z
  .string({ error: "Required" })
  .min(1, "Must not be empty")
  .meta({ description: "Id of an application visible to the token's owner." });

const { min, max } = DEPLOYMENTS_LIMIT;

/** A decimal integer within DEPLOYMENTS_LIMIT, one issue otherwise. */
const limitText = z.string().transform((text, ctx) => {
  const n = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (n >= min && n <= max) return n;
  ctx.addIssue({ code: "custom", message: `Must be an integer from ${min} to ${max}` });
  return z.NEVER;
});

/** Query of GET /api/agent/application: validates requests and is documented in the OpenAPI document. */
export const applicationSchema = z.object({ applicationId });
/** Query of GET /api/agent/deployments (`limit` is text on the wire, documented as the integer it must spell). */
export const deploymentsSchema = z.object({
  applicationId,
  limit: limitText.optional().meta({
    description: `Number of deployments, ${min} to ${max}.`,
    type: "integer",
    minimum: min,
    maximum: max,
    default: DEPLOYMENTS_LIMIT.default,
  }),
});

/** Parses `schema` from the request's query (first value of repeated parameters). */
function parse<S extends z.ZodType>(schema: S, req: RestRequest, names: string[]): z.output<S> {
  const input = Object.fromEntries(names.flatMap((n) => (req.query[n] === undefined ? [] : [[n, queryParam(req, n)]])));
  const result = schema.safeParse(input);
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
  const { applicationId } = parse(applicationSchema, req, ["applicationId"]);
  return { applicationId: checkId(applicationId) };
}

/** Variables of GET /api/agent/deployments (`limit` defaults to 10). @throws as {@link applicationVariables}. */
export function deploymentsVariables(req: RestRequest): { applicationId: string; limit: number } {
  const { applicationId, limit } = parse(deploymentsSchema, req, ["applicationId", "limit"]);
  return { applicationId: checkId(applicationId), limit: limit ?? DEPLOYMENTS_LIMIT.default };
}
