/**
 * The gate of every webhook operation (spec "Authentication"): the organization is named by its integer id
 * (`databaseId`, the REST path's `{org_id}`) or its TypeID; a caller who is not a member — or only a `member`,
 * who reads nothing here — gets 404 for the organization; owners and admins pass to the plan check (403 naming
 * the `webhooks` feature).
 */
import { refusal } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import { NotFoundError } from "../../shared/errors.ts";
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
 * The gate's answer for a caller whose standing in organization `organizationId` is `access` (null: not a member),
 * the organization named `ref` by the caller: NotFoundError (not a member, or role `member`), ForbiddenError (role,
 * or the plan lacks the `webhooks` feature), or null when the caller passes. Used by the services and, per
 * organization, inside the compiled reads (webhook.reads.ts).
 */
export function webhookRefusal(access: OrgAccess | null, organizationId: string, ref: string): Error | null {
  return refusal(access, "webhook:manage", organizationId, {
    hideFromRoles: ["member"],
    notFoundRef: ref,
    planFeature: { feature: "webhooks", what: "Webhooks" },
  });
}

/**
 * The organization `ref` when the caller may manage its webhooks.
 * @throws NotFoundError (unknown, not a member, or role `member`); ForbiddenError naming the `webhooks` plan
 * feature when the plan lacks it.
 */
export async function requireWebhookOrganization(ctx: ServiceContext, ref: string): Promise<WebhookOrganization> {
  const org = await findOrganizationByRef(ctx.knex, ref);
  if (!org) throw new NotFoundError("Organization", ref);
  const refused = webhookRefusal(await ctx.scope.forOrg(org.id), org.id, ref);
  if (refused) throw refused;
  return { organizationId: org.id, databaseId: org.databaseId };
}
