/**
 * Compiled-read SQL of schema/audit.graphql (src/reads/compiler.ts), the only implementation of these reads: an
 * organization's audit log, newest first, filtered, for its owners and admins (members: FORBIDDEN; an organization
 * the caller does not belong to: NOT_FOUND, as another organization's data is invisible).
 */

import { assertCan } from "../../auth/access/policy.ts";
import {
  checkedEnum,
  column,
  connectionSql,
  pageSizeArg,
  type ReadCompiler,
  type ReadField,
  type ReadTypes,
  timestamp,
} from "../../reads/index.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { decodeCursor } from "../../shared/pagination.ts";

/** The filters of `auditEvents` (and of the REST list and export), as their arguments name them. */
export interface AuditFilters {
  organizationId?: string | null;
  actorUserId?: string | null;
  action?: string | null;
  targetId?: string | null;
  since?: Date | null;
  until?: Date | null;
}

/**
 * The organization whose log the caller reads: `requested`, else the one the request acts on.
 * @throws NotFoundError when the caller does not belong to it; ForbiddenError when its role may not read the log.
 */
function readableOrganization(compiler: ReadCompiler, requested: string | null | undefined): string {
  const organizationId = requested ?? compiler.caller.organizationId;
  const access = organizationId ? compiler.caller.orgs.get(organizationId) : undefined;
  if (!organizationId || !access) throw new NotFoundError("Organization", organizationId ?? "");
  assertCan(access, "audit:read");
  return organizationId;
}

/** The SQL condition on `audit_events` row `p` of the organization's entries matching `filters`. */
function whereSql(compiler: ReadCompiler, organizationId: string, filters: AuditFilters): string {
  if (filters.since && filters.until && filters.since >= filters.until) {
    throw new BadUserInputError("`since` must be before `until`", {
      fieldErrors: { until: ["Must be after `since`"] },
    });
  }
  const parts = [`p.organization_id = ${compiler.param(organizationId)}`];
  if (filters.actorUserId) parts.push(`p.actor_user_id = ${compiler.param(filters.actorUserId)}`);
  if (filters.action) parts.push(`p.action = ${compiler.param(filters.action)}`);
  if (filters.targetId) parts.push(`p.target_ids @> array[${compiler.param(filters.targetId)}]::text[]`);
  if (filters.since) parts.push(`p.occurred_at >= ${compiler.param(filters.since)}`);
  if (filters.until) parts.push(`p.occurred_at < ${compiler.param(filters.until)}`);
  return parts.join(" and ");
}

/** Query.auditEvents as an `AuditEventConnection` page. */
function auditConnection(field: ReadField) {
  const { compiler, args } = field;
  const first = pageSizeArg(field, "first");
  const afterId = typeof args.after === "string" && args.after ? decodeCursor(args.after, "auditEvent") : null;
  const filters = args as AuditFilters;
  const organizationId = readableOrganization(compiler, filters.organizationId);
  const where = whereSql(compiler, organizationId, filters);
  return connectionSql(field, {
    table: "audit_events",
    where,
    first,
    afterId,
    descending: true,
    nodeType: "AuditEvent",
  });
}

/** Query.auditEvents and AuditEvent. */
export const auditReads: ReadTypes = {
  Query: {
    auditEvents: auditConnection,
  },
  AuditEvent: {
    id: column("id"),
    occurredAt: timestamp("occurred_at"),
    actorKind: checkedEnum("actor_kind"),
    actorUserId: column("actor_user_id"),
    credentialKind: checkedEnum("credential_kind"),
    credentialId: column("credential_id"),
    surface: checkedEnum("surface"),
    action: column("action"),
    targetIds: ({ alias }) => `to_json(${alias}.target_ids)`,
    outcome: column("outcome"),
    clientAddress: column("client_address"),
    requestId: column("request_id"),
  },
};
