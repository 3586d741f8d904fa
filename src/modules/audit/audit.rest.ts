/**
 * REST rows of the audit log (docs/audit-log.md), each executing `auditEvents` (schema/audit.graphql): a page of
 * entries (`GET /api/audit-events`) and an NDJSON export of a time range (`GET /api/audit-events/export`). Same
 * filters as the GraphQL field, as query parameters: `organization_id`, `actor_user_id`, `action`, `target_id`,
 * `since`, `until` (ISO 8601). Errors: `{ error, code }` (400 adds `fieldErrors`) with 400, 401, 403 (a member),
 * 404 (an organization the caller does not belong to). Not in the spec's published list (hidden with
 * SKIFF_PUBLIC_API_ONLY=true, as the dashboard's paths are).
 */

import { z } from "zod";
import { isDateTime } from "../../shared/date-time.ts";
import { BadUserInputError } from "../../shared/errors.ts";
import { parseQuery, queryInteger } from "../../shared/query-params.ts";
import {
  queryParam,
  type RestError,
  type RestRequest,
  type RestResponse,
  type RestRoute,
} from "../../shared/rest-route.ts";
import { toBadUserInput } from "../../shared/validate.ts";

/** The fields of an entry, as GraphQL and both rows name them. */
const EVENT_FIELDS =
  "id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome clientAddress requestId";

/** The operation's variables and filter arguments. */
const FILTER_VARIABLES =
  "$org: ID, $actor: ID, $action: String, $target: ID, $since: DateTime, $until: DateTime, $first: Int, $after: String";
const FILTER_ARGUMENTS =
  "organizationId: $org, actorUserId: $actor, action: $action, targetId: $target, since: $since, until: $until, first: $first, after: $after";

/** The operations the rows execute. */
export const AUDIT_OPERATIONS = {
  list: `query AuditEvents(${FILTER_VARIABLES}) {
    auditEvents(${FILTER_ARGUMENTS}) { totalCount pageInfo { hasNextPage endCursor } nodes { ${EVENT_FIELDS} } } }`,
  export: `query ExportAuditEvents(${FILTER_VARIABLES}) {
    auditEvents(${FILTER_ARGUMENTS}) { pageInfo { hasNextPage endCursor } nodes { ${EVENT_FIELDS} } } }`,
} as const;

/** `?first=`: the page size, 1 to 200 as the field's `@pageSize` (src/shared/query-params.ts's rule). */
const pageQuery = z.object({ first: queryInteger({ min: 1, max: 200 }) });

/** Entries per page of the export (the field's largest page). */
const EXPORT_PAGE = 200;

/**
 * The filters of the request's query parameters as the operation's variables.
 * @throws BadUserInputError on a bad `first`, or a `since`/`until` that is not an RFC 3339 date-time with an offset.
 */
function filterVariables(req: RestRequest): Record<string, unknown> {
  const text = (name: string) => queryParam(req, name) || undefined;
  const page = parseQuery(pageQuery, req);
  if (!page.success) throw toBadUserInput(page.error, "Invalid input");
  const { first } = page.data;
  for (const name of ["since", "until"]) {
    const value = text(name);
    if (value !== undefined && !isDateTime(value)) {
      throw new BadUserInputError(`${name} must be an RFC 3339 date-time`, {
        fieldErrors: { [name]: ["Must be an RFC 3339 date-time with a time zone offset (e.g. 2026-01-31T12:00:00Z)"] },
      });
    }
  }
  return {
    org: text("organization_id"),
    actor: text("actor_user_id"),
    action: text("action"),
    target: text("target_id"),
    since: text("since"),
    until: text("until"),
    first,
    after: text("after"),
  };
}

/** `{ error, code }` (400: with `fieldErrors`) at the mapped status; unknown statuses answer a masked 500. */
function auditError(error: RestError, status: number): RestResponse {
  const ext = error.extensions ?? {};
  const code = String(ext.code ?? "INTERNAL_SERVER_ERROR");
  if (status === 500) return { status, body: { error: "Internal server error", code, errorId: ext.errorId } };
  if (status === 400) return { status, body: { error: error.message, code, fieldErrors: ext.fieldErrors ?? {} } };
  return { status, body: { error: error.message, code } };
}

/** `GET /api/audit-events` and `GET /api/audit-events/export`. */
export const auditRoutes: readonly RestRoute[] = [
  {
    method: "GET",
    path: "/api/audit-events",
    surface: "rest",
    organization: "named",
    published: false,
    operation: AUDIT_OPERATIONS.list,
    variables: filterVariables,
    // `{ events, totalCount, nextCursor }`: pass `nextCursor` as `after` for the next page (null: none).
    respond: (data) => {
      const page = data.auditEvents as {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: unknown[];
      };
      const nextCursor = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      return { status: 200, body: { events: page.nodes, totalCount: page.totalCount, nextCursor } };
    },
    error: auditError,
  },
  {
    method: "GET",
    path: "/api/audit-events/export",
    surface: "rest",
    organization: "named",
    published: false,
    operation: AUDIT_OPERATIONS.export,
    // Every entry of the range, newest first, one JSON object per line.
    variables: (req) => ({ ...filterVariables(req), first: EXPORT_PAGE, after: undefined }),
    bodyAt: ["auditEvents", "nodes"],
    followPages: { connection: ["auditEvents"], cursorVariable: "after", ndjson: true },
    error: auditError,
  },
];
