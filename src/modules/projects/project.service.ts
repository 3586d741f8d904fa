/**
 * Project writes shared by every surface (GraphQL, REST, imports). Callers own the transaction.
 */
import type { Knex } from "knex";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { withTransaction } from "../../shared/transaction.ts";
import type { ServiceContext } from "../context.ts";
import { events } from "../events.ts";
import { assertQuota, provideQuotaCounter } from "../organizations/index.ts";
import { Environment, Project } from "./project.model.ts";

/** Name of the environment every project starts with. */
export const PRODUCTION_ENVIRONMENT = "production";

/** The message of a project name conflict (unique per organization). */
export function projectNameTakenMessage(name: string): string {
  return `A project named "${name}" already exists in this organization`;
}

/**
 * Creates a project and its `production` environment in one transaction (the caller's when `ctx.knex` is one),
 * after checking the projects quota.
 * @throws ConflictError when the organization already has a project of that name (unique constraint);
 * QuotaExceededError when the plan's projects quota is reached.
 */
export function createProjectWithProduction(
  ctx: ServiceContext,
  input: { organizationId: string; name: string; description?: string | null },
): Promise<{ project: Project; environment: Environment }> {
  return withTransaction(ctx, async ({ knex: trx }) => {
    await assertQuota(trx, input.organizationId, "projects");
    const project = await translateUniqueViolations(
      () =>
        Project.query(trx)
          .insert({
            organizationId: input.organizationId,
            name: input.name,
            description: input.description ?? null,
          })
          .returning("*"),
      { projects_organization_id_name_unique: { message: projectNameTakenMessage(input.name), field: "name" } },
    );
    const environment = await Environment.query(trx)
      .insert({ projectId: project.id, name: PRODUCTION_ENVIRONMENT })
      .returning("*");
    return { project, environment };
  });
}

/**
 * Deletes a project (cascading to environments, applications, databases, domains, variables, deployments) and
 * emits `project.deleted` in the same transaction (the caller's when `ctx.knex` is one); `options.outbound: false`
 * (a site import's rollback or retry) sends it to no webhook. The event is emitted with the project's row locked,
 * before the delete, so that its consumers still find what the project holds (they remove its cluster objects and
 * end the live subscriptions of its applications).
 * @returns whether it existed.
 */
export function deleteProject(
  ctx: ServiceContext,
  projectId: string,
  options: { outbound?: boolean } = {},
): Promise<boolean> {
  return withTransaction(ctx, async (tx) => {
    const deleted = await Project.query(tx.knex).findById(projectId).forUpdate();
    if (!deleted) return false;
    await events.emit(tx, "project.deleted", {
      organizationId: deleted.organizationId,
      data: {
        project: { project_id: deleted.id, name: deleted.name },
        ...(tx.caller && { changed_by: tx.caller.userId }),
      },
      outbound: options.outbound ?? true,
    });
    await Project.query(tx.knex).deleteById(projectId);
    return true;
  });
}

/** A project's changeable fields as {@link updateProject} takes them: undefined keeps a field, null clears it. */
export interface ProjectChanges {
  name?: string;
  description?: string | null;
}

/**
 * Applies `changes` to project `projectId` (no access check: callers check) with its row locked, in the caller's
 * transaction when `ctx.knex` is one, and emits `project.updated` with the fields whose value changed (none: no
 * write, no event).
 * @returns the project as it is after the change, or undefined when it is gone.
 * @throws ConflictError when the organization already has a project of the new name (unique constraint).
 */
export function updateProject(
  ctx: ServiceContext,
  projectId: string,
  changes: ProjectChanges,
): Promise<Project | undefined> {
  return withTransaction(ctx, async (tx) => {
    const project = await Project.query(tx.knex).findById(projectId).forUpdate();
    if (!project) return undefined;
    const patch: Partial<Pick<Project, "name" | "description">> = {};
    const fields: Array<"name" | "description"> = [];
    if (changes.name !== undefined && changes.name !== project.name) {
      patch.name = changes.name;
      fields.push("name");
    }
    if (changes.description !== undefined && changes.description !== project.description) {
      patch.description = changes.description;
      fields.push("description");
    }
    if (!fields.length) return project;
    const [updated] = await translateUniqueViolations(
      () =>
        Project.query(tx.knex)
          .patch({ ...patch, updatedAt: new Date() })
          .where({ id: projectId })
          .returning("*"),
      {
        projects_organization_id_name_unique: {
          message: projectNameTakenMessage(patch.name ?? project.name),
          field: "name",
        },
      },
    );
    await events.emit(tx, "project.updated", {
      organizationId: updated!.organizationId,
      data: {
        project: { project_id: updated!.id, name: updated!.name },
        fields,
        ...(tx.caller && { changed_by: tx.caller.userId }),
      },
    });
    return updated;
  });
}

/**
 * The characters of an environment name: letters, digits, `_` and `-`, starting with a letter or digit (its length,
 * 1 to 63 characters, is checked apart, so that a long name is told only that).
 */
export const ENVIRONMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** The message of an environment name conflict (unique per project). */
function environmentNameTakenMessage(name: string): string {
  return `The project already has an environment named "${name}"`;
}

/**
 * Adds environment `name` to project `projectId` (no access check: callers check).
 * @throws ConflictError when the project already has an environment of that name.
 */
export function createEnvironment(ctx: ServiceContext, projectId: string, name: string): Promise<Environment> {
  return translateUniqueViolations(() => Environment.query(ctx.knex).insert({ projectId, name }).returning("*"), {
    environments_project_id_name_unique: { message: environmentNameTakenMessage(name), field: "name" },
  });
}

/**
 * Renames environment `id` (no access check). @returns the updated row, or undefined when it is gone.
 * @throws ConflictError when its project already has an environment of that name.
 */
export async function renameEnvironment(
  ctx: ServiceContext,
  id: string,
  name: string,
): Promise<Environment | undefined> {
  const [row] = await translateUniqueViolations(
    () => Environment.query(ctx.knex).patch({ name }).where({ id }).returning("*"),
    { environments_project_id_name_unique: { message: environmentNameTakenMessage(name), field: "name" } },
  );
  return row;
}

/**
 * Environment `id` locked for the rest of the caller's transaction (`for update`: rows that reference it wait, so
 * nothing is created in it meanwhile), with how many environments its project has; undefined when it is gone. Its
 * project's row is locked first (`for no key update`, which new environments' foreign keys do not wait for), so two
 * deletes of a project's last two environments count one after the other and one of them keeps the project's last.
 */
export async function lockEnvironment(
  trx: Knex.Transaction,
  id: string,
): Promise<(Environment & { siblings: number }) | undefined> {
  const seen = await Environment.query(trx).findById(id).select("projectId");
  if (!seen) return undefined;
  await trx("projects").where({ id: seen.projectId }).forNoKeyUpdate().select(1);
  const env = await Environment.query(trx).findById(id).forUpdate();
  if (!env) return undefined;
  const [{ count }] = (await trx("environments").where({ project_id: env.projectId }).count("*")) as [
    { count: string | number },
  ];
  return Object.assign(env, { siblings: Number(count) });
}

/** Deletes environment `id` (no access check; callers check it is empty first). @returns whether it existed. */
export async function deleteEnvironment(ctx: ServiceContext, id: string): Promise<boolean> {
  return (await Environment.query(ctx.knex).deleteById(id)) > 0;
}

/** Query (not run) of the projects of `organizationId`; other modules compose it (quotas, import checks). */
export function projectsOfOrganization(db: Knex | Knex.Transaction, organizationId: string): Knex.QueryBuilder {
  return db("projects").where("organization_id", organizationId);
}
provideQuotaCounter("projects", projectsOfOrganization);

/** Query (not run) of the project named `name` in `organizationId` (names are unique per organization). */
export function projectNamed(db: Knex | Knex.Transaction, organizationId: string, name: string): Knex.QueryBuilder {
  return projectsOfOrganization(db, organizationId).where("name", name).select(1);
}

/**
 * Locks project `projectId` and its environments (`for update`) for the rest of the caller's transaction, so that
 * nothing is created in it meanwhile: an insert referencing one of them (an application, a database, an environment)
 * waits for the transaction, then finds it gone or sees the state it left. The environments are locked first, as a
 * creation in one meets them first (its row, then its project's). Returns the environments `{ id, name, createdAt }`
 * and the project's `createdAt` as they are once locked (none: the project is gone).
 */
export async function lockProjectTree(
  trx: Knex.Transaction,
  projectId: string,
): Promise<{ createdAt: Date; environments: Array<{ id: string; name: string; createdAt: Date }> } | undefined> {
  await Environment.query(trx).where({ projectId }).orderBy("id").forUpdate().select("id");
  const project = await Project.query(trx).findById(projectId).forUpdate().select("createdAt");
  if (!project) return undefined;
  const environments = await Environment.query(trx)
    .where({ projectId })
    .orderBy(["createdAt", "id"])
    .select("id", "name", "createdAt");
  return { createdAt: project.createdAt, environments };
}
