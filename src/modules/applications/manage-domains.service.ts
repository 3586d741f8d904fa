/**
 * Adding, changing and removing an application's custom domains one by one (GraphQL `addDomain`, `updateDomain`,
 * `removeDomain`): host rules and platform-wide uniqueness as a site import's (application.input.ts, the
 * `domains_host_unique` constraint), the domains quota checked in the same transaction (application.service.ts).
 * A change of routing marks the application as needing a deployment and emits its `domain.*` event.
 */
import { z } from "zod";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { BadUserInputError } from "../../shared/errors.ts";
import { optional } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import type { Context } from "../context.ts";
import { events } from "../events.ts";
import { hostnameSchema, portSchema } from "./application.input.ts";
import { type Application, Domain } from "./application.model.ts";
import { createDomain, domainTakenMessage } from "./application.service.ts";
import { lockApplication, manageableApplication, manageableDomain } from "./manage.access.ts";
import { applicationRef, changedBy, markNeedsDeployment } from "./manage.events.ts";

/** A domain as events carry it. */
function domainRef(domain: Domain) {
  return { domain_id: domain.id, host: domain.host, port: domain.port, https: domain.https ?? false };
}

const addSchema = z.strictObject({
  applicationId: z.string(),
  host: hostnameSchema,
  port: optional(portSchema),
  https: optional(z.boolean()),
});

/**
 * `addDomain` (owners and admins): routes `host` to the application. Emits `domain.added`.
 * @throws NotFoundError, ForbiddenError (role; the domains quota, naming it), BadUserInputError, ConflictError (host
 * taken anywhere on the platform).
 */
export async function addDomain(ctx: Context, raw: z.input<typeof addSchema>): Promise<Domain> {
  const app = await manageableApplication(ctx, raw.applicationId);
  const input = parseInput(addSchema, raw, "Invalid domain");
  return withTransaction(ctx, async (tx) => {
    await lockApplication(tx.knex, app.id);
    const domain = await createDomain(tx, {
      organizationId: app.organizationId,
      applicationId: app.id,
      host: input.host,
      port: input.port ?? null,
      https: input.https ?? true,
    });
    await markNeedsDeployment(tx.knex, [app.id]);
    await events.emit(tx, "domain.added", {
      organizationId: app.organizationId,
      data: { domain: domainRef(domain), application: applicationRef(app), ...changedBy(tx) },
    });
    return domain;
  });
}

const updateSchema = z.strictObject({
  host: optional(hostnameSchema),
  port: optional(portSchema),
  useApplicationPort: optional(z.boolean()),
  https: optional(z.boolean()),
});

/**
 * `updateDomain` (owners and admins): changes the host, port (or back to the application's) or HTTPS. Nothing
 * different: no change and no event. Emits `domain.updated`.
 * @throws NotFoundError, ForbiddenError, BadUserInputError, ConflictError (host taken).
 */
export async function updateDomain(ctx: Context, id: string, raw: z.input<typeof updateSchema>): Promise<Domain> {
  const { domain, app } = await manageableDomain(ctx, id);
  const input = parseInput(updateSchema, raw, "Invalid domain");
  if (input.useApplicationPort && input.port !== undefined) {
    throw new BadUserInputError("Invalid domain: give port or useApplicationPort, not both", {
      fieldErrors: { useApplicationPort: ["Not with port"] },
    });
  }
  const patch: Partial<Domain> = {};
  if (input.host !== undefined && input.host !== domain.host) patch.host = input.host;
  if (input.port !== undefined && input.port !== domain.port) patch.port = input.port;
  if (input.useApplicationPort && domain.port !== null) patch.port = null;
  if (input.https !== undefined && input.https !== domain.https) patch.https = input.https;
  if (!Object.keys(patch).length) return domain;
  return withTransaction(ctx, async (tx) => {
    await lockApplication(tx.knex, app.id);
    const [updated] = await translateUniqueViolations(
      () => Domain.query(tx.knex).patch(patch).where({ id }).returning("*"),
      { domains_host_unique: { message: domainTakenMessage(patch.host ?? domain.host), field: "host" } },
    );
    if (!updated) return domain;
    await markNeedsDeployment(tx.knex, [app.id]);
    await events.emit(tx, "domain.updated", {
      organizationId: app.organizationId,
      data: {
        domain: domainRef(updated),
        application: applicationRef(app),
        ...(patch.host && { previous_host: domain.host }),
        ...changedBy(tx),
      },
    });
    return updated;
  });
}

/**
 * `removeDomain` (owners and admins): removes `host` from the application; a host it does not have is no change
 * (a retry succeeds). Emits `domain.removed`. @returns the application as it now is.
 * @throws NotFoundError, ForbiddenError, BadUserInputError (`fieldErrors.host`).
 */
export async function removeDomain(ctx: Context, applicationId: string, rawHost: string): Promise<Application> {
  const app = await manageableApplication(ctx, applicationId);
  const { host } = parseInput(z.strictObject({ host: hostnameSchema }), { host: rawHost }, "Invalid domain");
  return withTransaction(ctx, async (tx) => {
    const locked = await lockApplication(tx.knex, app.id);
    const [removed] = await Domain.query(tx.knex).where({ applicationId, host }).delete().returning("*");
    if (!removed) return locked;
    await markNeedsDeployment(tx.knex, [app.id]);
    await events.emit(tx, "domain.removed", {
      organizationId: app.organizationId,
      data: { domain: domainRef(removed as unknown as Domain), application: applicationRef(app), ...changedBy(tx) },
    });
    return locked; // re-read by id for the answer
  });
}
