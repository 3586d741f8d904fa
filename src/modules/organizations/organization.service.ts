/**
 * Organization lifecycle (spec: "Organization and access resources"): create (creator = owner), rename, switch
 * the session's active organization, change plan (billing). Visibility first (NOT_FOUND), then src/auth/access/policy.ts.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { assertSignedIn } from "../../auth/access/policy.ts";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { BadUserInputError, ConflictError, echoed, NotFoundError } from "../../shared/errors.ts";
import { nameText } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import { Member, organizationAccess } from "../access/index.ts";
import {
  noteAuditOrganization,
  noteAuditTarget,
  writeModelsWithAuditEntry,
  writeWithAuditEntry,
} from "../audit/index.ts";
import type { Context, ServiceContext } from "../context.ts";
import { events } from "../events.ts";
import { Organization, Plan } from "./organization.model.ts";
import { userById } from "./organization.queries.ts";
import { QUOTA_KINDS, quotaStatus } from "./quota.ts";

/** Plan given to new organizations. */
export const DEFAULT_PLAN_ID = "plan_free";

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,46})[a-z0-9]$/;

/** Organization display names: trimmed, 1 to 100 characters. */
export const organizationName = nameText(100);

const createInput = z.object({
  name: organizationName,
  slug: z.string().regex(SLUG, "3 to 48 of a-z, 0-9 and -, starting and ending with a letter or digit").nullish(),
});

/** A slug from `name`: lower-case ASCII words joined by `-`, plus 6 random characters for uniqueness. */
export function slugFrom(name: string): string {
  const base = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  const suffix = randomBytes(4).toString("hex").slice(0, 6);
  return base ? `${base}-${suffix}` : `org-${suffix}`;
}

/**
 * Creates an organization and the owner membership of `userId` in one transaction (on {@link DEFAULT_PLAN_ID}).
 * Shared by `createOrganization` and the first-run bootstrap.
 * @throws ConflictError when the slug is taken.
 */
export async function insertOrganizationWithOwner(
  ctx: Pick<ServiceContext, "knex">,
  input: { name: string; slug: string; userId: string; planId?: string },
): Promise<Organization> {
  return withTransaction(ctx, async ({ knex: trx }) => {
    const org = await translateUniqueViolations(
      () =>
        Organization.query(trx)
          .insert({ name: input.name, slug: input.slug, planId: input.planId ?? DEFAULT_PLAN_ID })
          .returning("*"),
      { organizations_slug_unique: { message: `The slug "${input.slug}" is taken`, field: "slug" } },
    );
    const owner = await Member.query(trx).insert({ organizationId: org.id, userId: input.userId, role: "owner" });
    // `createOrganization`'s entry is the new organization's: its log starts with its creation, naming its owner's
    // membership too.
    noteAuditOrganization(ctx, org.id);
    noteAuditTarget(ctx, owner.id);
    return org;
  });
}

/**
 * `createOrganization`: the caller (a signed-in session) becomes the owner.
 * @throws ForbiddenError for API keys; BadUserInputError for an invalid name or slug; ConflictError (slug taken).
 */
export async function createOrganization(ctx: Context, raw: { name: string; slug?: string | null }) {
  const principal = ctx.caller!;
  assertSignedIn(principal, "organization:create");
  const input = parseInput(createInput, raw);
  const organization = await insertOrganizationWithOwner(ctx, {
    name: input.name,
    slug: input.slug ?? slugFrom(input.name),
    userId: principal.userId,
  });
  // The caller's memberships (read with its session) now hold one more: the answer's fields read them anew.
  ctx.scope.invalidate();
  return organization;
}

/** `renameOrganization`. @throws NotFoundError, ForbiddenError (members), BadUserInputError (name). */
export async function renameOrganization(ctx: Context, id: string, rawName: string) {
  await organizationAccess(ctx.scope, { organizationId: id, action: "organization:update" });
  const name = parseInput(z.object({ name: organizationName }), { name: rawName }).name;
  const query = Organization.query(ctx.knex).patch({ name }).where({ id }).returning("*");
  const [renamed] = await writeModelsWithAuditEntry(ctx, Organization, query);
  // Deleted since it was found: as if it had never been.
  if (!renamed) throw new NotFoundError("Organization", id);
  return renamed;
}

/**
 * `setActiveOrganization`: the session then acts on `id` (better-auth's `sessions.active_organization_id`; this
 * is the only way to switch). For an API key only its own organization is visible, so
 * any other id answers NOT_FOUND and its own id changes nothing.
 * @returns the principal, now acting on `id` (the GraphQL `Viewer`).
 * @throws NotFoundError when the caller is not a member of `id`.
 */
export async function setActiveOrganization(ctx: Context, id: string) {
  const access = await organizationAccess(ctx.scope, { organizationId: id });
  const principal = ctx.caller!;
  if (principal.via === "session" && principal.sessionId) {
    await writeWithAuditEntry(
      ctx,
      ctx.knex("sessions").where({ id: principal.sessionId }).update({ active_organization_id: id }).returning("id"),
    );
  }
  principal.organizationId = access.organizationId;
  return principal;
}

/**
 * `changePlan` (billing, owner only): moves the organization to the plan named `planName`. Usage is counted for
 * every quota the new plan limits (whatever the current plan limits) with the organization's row locked, as
 * creations checking a limited quota lock it (`assertQuota`). Emits `org_plan_changed` when the plan changes (the
 * cluster's namespace quota follows it: docs/deployments.md "Tenant namespaces").
 * @throws NotFoundError, ForbiddenError, BadUserInputError (unknown plan), ConflictError (usage above a new quota).
 */
export async function changePlan(ctx: Context, organizationId: string, planName: string) {
  await organizationAccess(ctx.scope, { organizationId, action: "billing:manage" });
  const plan = await Plan.query(ctx.knex).findOne({ name: planName });
  if (!plan) {
    const names = (await Plan.query(ctx.knex).orderBy("name")).map((p) => p.name);
    throw new BadUserInputError(`Unknown plan "${echoed(planName)}"`, {
      fieldErrors: { plan: [`One of: ${names.join(", ")}`] },
    });
  }
  const limits = {
    projects: plan.maxProjects,
    applications: plan.maxApplications,
    databases: plan.maxDatabases,
    domains: plan.maxDomains,
  };
  const limited = QUOTA_KINDS.filter((k) => limits[k] !== null);
  return withTransaction(ctx, async ({ knex: trx }) => {
    const [{ planId: previousId, databaseId }] = await trx("organizations")
      .where("id", organizationId)
      .forUpdate()
      .select("plan_id", "database_id");
    const { usage } = await quotaStatus(trx, organizationId, limited);
    const over = limited.filter((k) => usage[k] > (limits[k] as number));
    if (over.length) {
      const detail = over.map((k) => `${k} ${usage[k]} > ${limits[k]}`).join(", ");
      throw new ConflictError(`Usage exceeds the quotas of plan "${plan.name}": ${detail}`);
    }
    const changed = await Organization.query(trx).patchAndFetchById(organizationId, { planId: plan.id });
    if (previousId !== plan.id) {
      const previous = await Plan.query(trx).findById(previousId);
      const by = await userById(trx, ctx.caller!.userId);
      await events.emit({ knex: trx, services: ctx.services }, "org_plan_changed", {
        organizationId,
        data: {
          org_id: databaseId,
          plan: plan.name,
          previous_plan: previous?.name ?? "",
          ...(by ? { changed_by: { user_uuid: by.id, email: by.email, username: by.name ?? "" } } : {}),
        },
      });
    }
    return changed;
  });
}
