/**
 * The targets of the management mutations, found with the caller's visibility and checked against the role table
 * (src/auth/access/policy.ts): invisible (another organization's, not granted, or missing) answers NOT_FOUND,
 * a visible one the role may not change answers FORBIDDEN (members may view and deploy only).
 */
import type { Knex } from "knex";
import { NotFoundError } from "../../shared/errors.ts";
import { organizationAccess } from "../access/index.ts";
import type { Context } from "../context.ts";
import type { Database } from "../databases/index.ts";
import type { Environment } from "../projects/index.ts";
import { Application, Domain } from "./application.model.ts";

/** Application `id` visible to the caller, whose role may manage applications. @throws NotFoundError, ForbiddenError. */
export async function manageableApplication(ctx: Context, id: string): Promise<Application> {
  const app = await ctx.loaders.applications.byId.load(id);
  if (!app) throw new NotFoundError("Application", id);
  await organizationAccess(ctx.scope, { organizationId: app.organizationId, action: "application:manage" });
  return app;
}

/**
 * Environment `id` visible to the caller (its project is), whose role allows `action`.
 * @throws NotFoundError, ForbiddenError.
 */
export async function manageableEnvironment(
  ctx: Context,
  id: string,
  action: "environment:manage" | "application:manage" | "database:manage",
): Promise<Environment & { organizationId: string }> {
  const env = await ctx.loaders.projects.environmentById.load(id);
  // Visible with its project: the project loads, and says the organization.
  const project = env && (await ctx.loaders.projects.byId.load(env.projectId));
  if (!env || !project) throw new NotFoundError("Environment", id);
  await organizationAccess(ctx.scope, { organizationId: project.organizationId, action });
  return Object.assign(env, { organizationId: project.organizationId });
}

/** Database `id` visible to the caller (its project is), whose role may manage databases. @throws NotFoundError, ForbiddenError. */
export async function manageableDatabase(ctx: Context, id: string): Promise<Database> {
  const db = await ctx.loaders.databases.byId.load(id);
  if (!db) throw new NotFoundError("Database", id);
  await organizationAccess(ctx.scope, { organizationId: db.organizationId, action: "database:manage" });
  return db;
}

/** Domain `id` with its application, visible to the caller, who may manage it. @throws NotFoundError, ForbiddenError. */
export async function manageableDomain(ctx: Context, id: string): Promise<{ domain: Domain; app: Application }> {
  const domain = await Domain.query(ctx.knex).findById(id);
  const app = domain ? await ctx.loaders.applications.byId.load(domain.applicationId) : null;
  if (!domain || !app) throw new NotFoundError("Domain", id);
  await organizationAccess(ctx.scope, { organizationId: app.organizationId, action: "application:manage" });
  return { domain, app };
}

/** Application `id` locked (`for update`) for the rest of the caller's transaction; re-read, so current. */
export async function lockApplication(trx: Knex.Transaction, id: string): Promise<Application> {
  const app = await Application.query(trx).findById(id).forUpdate();
  if (!app) throw new NotFoundError("Application", id);
  return app;
}
