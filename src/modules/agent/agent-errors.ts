/**
 * Error bodies of the agent API (spec: Errors → Agent API): `{ message, code }`, plus `issues` on 400.
 * The GraphQL code is mapped to the documented REST code: UNAUTHENTICATED → UNAUTHORIZED,
 * BAD_USER_INPUT → BAD_REQUEST, NOT_FOUND → NOT_FOUND, and SERVICE_UNAVAILABLE (the database cannot be reached)
 * → 503 SERVICE_UNAVAILABLE, sent with `Retry-After` (the route runner adds it to every 503), as `/graphql` answers.
 */
import type { RestError, RestResponse } from "../../shared/rest-route.ts";
import type { AgentIssue } from "./agent-params.ts";

/** The `code` of an agent API error body, by HTTP status. */
const CODE_OF_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  503: "SERVICE_UNAVAILABLE",
};

/** An agent API error body. */
export interface AgentErrorBody {
  message: string;
  code: string;
  issues?: AgentIssue[];
}

/** `issues` of a BAD_USER_INPUT error: its own, else derived from `fieldErrors` / `formErrors`. */
function issuesOf(error: RestError): AgentIssue[] {
  const ext = error.extensions ?? {};
  if (Array.isArray(ext.issues)) return ext.issues as AgentIssue[];
  const fieldErrors = (ext.fieldErrors ?? {}) as Record<string, string[]>;
  const formErrors = (ext.formErrors ?? []) as string[];
  return [
    ...Object.entries(fieldErrors).flatMap(([field, messages]) =>
      messages.map((message) => ({ path: field.split("."), message })),
    ),
    ...formErrors.map((message) => ({ path: [], message })),
  ];
}

/**
 * Shapes a failed agent API request (the route table's `error`). Unknown statuses answer a masked 500
 * (with the `errorId` of the log line); 503 keeps its status (a client retries after `Retry-After`).
 */
export function agentError(error: RestError, status: number): RestResponse {
  const code = CODE_OF_STATUS[status];
  if (!code) {
    const errorId = error.extensions?.errorId;
    return { status: 500, body: { message: "Internal server error", code: "INTERNAL_SERVER_ERROR", errorId } };
  }
  const body: AgentErrorBody = { message: error.message, code };
  if (status === 400) body.issues = issuesOf(error);
  return { status, body };
}
