/**
 * The gate of every webhook operation (spec "Authentication"): the organization is named by its integer id
 * (`databaseId`, the REST path's `{org_id}`) or its TypeID; a caller who is not a member — or only a `member`,
 * who reads nothing here — gets 404 for the organization; owners and admins pass to the plan check (403 naming
 * the `webhooks` feature).
 */
import { NotFoundError } from "../../shared/errors.ts";
import { type OrganizationLookup, organizationAccess } from "../access/index.ts";
import type { ServiceContext } from "../context.ts";
import { findOrganizationByRef } from "../organizations/index.ts";

/** The organization a webhook operation acts on. */
export interface WebhookOrganization {
  /** TypeID (`org_…`). */
  organizationId: string;
  /** The stable integer id (envelope `org_id`). */
  databaseId: number;
}

/**
 * The webhook gate as the access policy takes it (`refusal` in the compiled reads, webhook.reads.ts; the organization
 * lookup in the services): owners and admins (`webhook:manage`), the organization hidden from a `member`, and the
 * plan's `webhooks` feature.
 */
export const WEBHOOK_GATE = {
  action: "webhook:manage",
  hideFromRoles: ["member"],
  planFeature: { feature: "webhooks", what: "Webhooks" },
} as const satisfies OrganizationLookup;

/**
 * The organization `ref` when the caller may manage its webhooks ({@link WEBHOOK_GATE}).
 * @throws NotFoundError (unknown, not a member, or role `member`); ForbiddenError naming the `webhooks` plan
 * feature when the plan lacks it.
 */
export async function webhookOrganization(ctx: ServiceContext, ref: string): Promise<WebhookOrganization> {
  const org = await findOrganizationByRef(ctx.knex, ref);
  if (!org) throw new NotFoundError("Organization", ref);
  await organizationAccess(ctx.scope, { ...WEBHOOK_GATE, organizationId: org.id, notFoundRef: ref });
  return { organizationId: org.id, databaseId: org.databaseId };
}
