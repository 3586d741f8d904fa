/**
 * The gate of every webhook operation (issue 10 "Credentials"): the organization is named by its integer id
 * (`databaseId`, the REST path's `{org_id}`) or its TypeID; a caller who is not a member — or only a `member`,
 * who reads nothing here — gets 404 for the organization; owners and admins pass to the plan check (403 naming
 * the `webhooks` feature).
 */
import type { Knex } from "knex";
import { NotFoundError } from "../../shared/errors.ts";
import { requireAllowed, requirePlanFeature } from "../access/index.ts";
import type { ServiceContext } from "../context.ts";
import { organizationsTable } from "../organizations/index.ts";

/** The organization a webhook operation acts on. */
export interface WebhookOrganization {
  /** TypeID (`org_…`). */
  organizationId: string;
  /** The stable integer id (envelope `org_id`). */
  databaseId: number;
}

/** Resolves `ref` (integer id as digits, or `org_…`) to the organization row's ids, or null. */
async function findOrganization(knex: Knex, ref: string): Promise<WebhookOrganization | null> {
  const numeric = /^[1-9][0-9]{0,9}$/.test(ref) ? Number(ref) : null;
  if (numeric !== null && numeric > 2_147_483_647) return null;
  const row = await organizationsTable(knex)
    .where(numeric !== null ? { database_id: numeric } : { id: ref })
    .first("id", "database_id");
  return row ? { organizationId: row.id, databaseId: row.databaseId } : null;
}

/**
 * The organization `ref` when the caller may manage its webhooks.
 * @throws NotFoundError (unknown, not a member, or role `member`); ForbiddenError naming the `webhooks` plan
 * feature when the plan lacks it.
 */
export async function requireWebhookOrganization(ctx: ServiceContext, ref: string): Promise<WebhookOrganization> {
  const org = await findOrganization(ctx.knex, ref);
  if (!org) throw new NotFoundError("Organization", ref);
  const access = await requireAllowed(ctx.scope, "webhook:manage", org.organizationId, {
    hideFromRoles: ["member"],
    notFoundRef: ref,
  });
  requirePlanFeature(access, "webhooks", "Webhooks");
  return org;
}
