/**
 * Creating, renaming and deleting a project's environments (GraphQL `createEnvironment`, `renameEnvironment`,
 * `deleteEnvironment`; owners and admins). Deletion is refused while the environment holds applications or
 * databases (CONFLICT): a deletion never removes more than the caller named, and each application and database
 * has its own deletion with its own event. A project's last environment is kept (imports and the dashboard
 * expect one).
 */
import { z } from "zod";
import { ConflictError, NotFoundError } from "../../shared/errors.ts";
import { text } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import type { Context } from "../context.ts";
import { databasesInEnvironment } from "../databases/index.ts";
import { events } from "../events.ts";
import {
  createEnvironment as createEnvironmentRow,
  deleteEnvironment as deleteEnvironmentRow,
  ENVIRONMENT_NAME,
  type Environment,
  lockEnvironment,
  renameEnvironment as renameEnvironmentRow,
} from "../projects/index.ts";
import { manageableEnvironment } from "./manage.access.ts";
import { changedBy } from "./manage.events.ts";

const nameSchema = z.strictObject({
  name: text(63).regex(ENVIRONMENT_NAME, "Letters, digits, _ and - only, starting with a letter or digit"),
});

/** An environment as events carry it. */
function environmentRef(env: Environment) {
  return { environment_id: env.id, name: env.name, project_id: env.projectId };
}

/**
 * `createEnvironment`: a new environment of a visible project. Emits `environment.created`.
 * @throws NotFoundError, ForbiddenError, BadUserInputError, ConflictError (name taken in the project).
 */
export async function createEnvironment(ctx: Context, projectId: string, rawName: string): Promise<Environment> {
  const project = await ctx.loaders.projects.byId.load(projectId);
  if (!project) throw new NotFoundError("Project", projectId);
  await organizationAccess(ctx.scope, { organizationId: project.organizationId, action: "environment:manage" });
  const { name } = parseInput(nameSchema, { name: rawName }, "Invalid environment");
  return withTransaction(ctx, async (tx) => {
    const env = await createEnvironmentRow(tx, projectId, name);
    await events.emit(tx, "environment.created", {
      organizationId: project.organizationId,
      data: { environment: environmentRef(env), ...changedBy(tx) },
    });
    return env;
  });
}

/**
 * `renameEnvironment`. Emits `environment.updated` (nothing when the name is unchanged).
 * @throws NotFoundError, ForbiddenError, BadUserInputError, ConflictError.
 */
export async function renameEnvironment(ctx: Context, id: string, rawName: string): Promise<Environment> {
  const env = await manageableEnvironment(ctx, id, "environment:manage");
  const { name } = parseInput(nameSchema, { name: rawName }, "Invalid environment");
  if (name === env.name) return env;
  return withTransaction(ctx, async (tx) => {
    const renamed = await renameEnvironmentRow(tx, id, name);
    if (!renamed) throw new NotFoundError("Environment", id);
    await events.emit(tx, "environment.updated", {
      organizationId: env.organizationId,
      data: { environment: environmentRef(renamed), previous_name: env.name, ...changedBy(tx) },
    });
    return renamed;
  });
}

/**
 * `deleteEnvironment`: an empty environment that is not its project's last. Emits `environment.deleted`.
 * @returns the id. @throws NotFoundError, ForbiddenError, ConflictError (not empty; last environment).
 */
export async function deleteEnvironment(ctx: Context, id: string): Promise<string> {
  const env = await manageableEnvironment(ctx, id, "environment:manage");
  return withTransaction(ctx, async (tx) => {
    const locked = await lockEnvironment(tx.knex, id);
    // Of concurrent deletes of one environment, the first answers; the others find it gone (and leave a refused entry).
    if (!locked) throw new NotFoundError("Environment", id);
    const [{ count }] = (await tx.knex("applications").where({ environment_id: id }).count("*")) as [
      { count: string | number },
    ];
    const applications = Number(count);
    const databases = await databasesInEnvironment(tx.knex, id);
    if (applications || databases) {
      throw new ConflictError(
        `Environment ${locked.name} holds ${applications} application(s) and ${databases} database(s): delete them first`,
      );
    }
    if (locked.siblings <= 1) {
      throw new ConflictError(`Environment ${locked.name} is the project's only environment: a project keeps one`);
    }
    await deleteEnvironmentRow(tx, id);
    await events.emit(tx, "environment.deleted", {
      organizationId: env.organizationId,
      data: { environment: environmentRef(locked), ...changedBy(tx) },
    });
    return id;
  });
}
