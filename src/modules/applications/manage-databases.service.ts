/**
 * Creating databases, rotating their passwords and deleting them one by one (GraphQL `createDatabase`,
 * `rotateDatabasePassword`, `deleteDatabase`), with the applications' automatic variables (spec: "Automatic
 * environment variables", the import's `databaseEnvVars`): created on the applications named, and afterwards
 * followed wherever a variable still holds the value the database gave it — a value a user changed is theirs and
 * is left alone. An application uses a database when its `DB_HOST` is the database's service host (unique) or its
 * `DATABASE_URL` / `MONGO_URL` is the database's. The databases quota is checked in the same transaction.
 */
import type { Knex } from "knex";
import { z } from "zod";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { optional, text } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import type { Context, ServiceContext } from "../context.ts";
import {
  createDatabase,
  type Database,
  type DatabaseSpec,
  databaseEnvVars,
  databasePasswordSchema,
  databaseSchema,
  databaseServiceHost,
  databaseSpecOf,
  deleteDatabaseRow,
  generateDatabasePassword,
  lockDatabase,
  replaceDatabasePassword,
} from "../databases/index.ts";
import { events } from "../events.ts";
import { variableLimitProblem, variableSizeProblem, variablesBytes } from "./application.input.ts";
import { EnvironmentVariable } from "./application.model.ts";
import { newAppName, setEnvironmentVariables } from "./application.service.ts";
import { lockApplication, manageableDatabase, manageableEnvironment } from "./manage.access.ts";
import { changedBy, markNeedsDeployment } from "./manage.events.ts";
import type { DatabaseChangePayload } from "./manage.payloads.ts";

/** A database as events carry it (never its password). */
function databaseRef(db: Database) {
  return {
    database_id: db.id,
    type: db.type,
    name: db.name,
    project_id: db.projectId,
    environment_id: db.environmentId,
  };
}

/** Variables that identify the database an application uses (the host is unique; the URLs carry it). */
const IDENTIFYING = ["DB_HOST", "DATABASE_URL", "MONGO_URL"];

/**
 * The applications of `db`'s project that use it, each with the derived variables (key → stored value) that still
 * hold what `spec` gives them.
 */
async function derivedVariables(
  ctx: ServiceContext,
  db: Database,
  spec: DatabaseSpec,
): Promise<Map<string, Map<string, string>>> {
  const given = databaseEnvVars(spec, db.serviceHost);
  const rows = await EnvironmentVariable.query(ctx.knex)
    .join("applications", "applications.id", "environment_variables.application_id")
    .where("applications.project_id", db.projectId)
    .whereIn("environment_variables.key", Object.keys(given))
    .select("environment_variables.*")
    .orderBy("environment_variables.application_id");
  const held = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const value = ctx.services.secrets.decrypt(row.valueEncrypted);
    if (value !== given[row.key]) continue;
    const vars = held.get(row.applicationId) ?? new Map<string, string>();
    held.set(row.applicationId, vars.set(row.key, value));
  }
  for (const [applicationId, vars] of held) {
    if (!IDENTIFYING.some((key) => vars.has(key))) held.delete(applicationId);
  }
  return held;
}

/**
 * Locks `applicationIds` (in id order) and checks that setting `vars` on each keeps it within the variables limits
 * ({@link variableLimitProblem}, {@link variableSizeProblem}: names it holds already are replaced, not added).
 * @throws NotFoundError (an application deleted meanwhile), BadUserInputError (`fieldErrors["applicationIds.<i>"]`).
 */
async function requireVariableRoom(
  tx: ServiceContext & { knex: Knex.Transaction },
  applicationIds: readonly string[],
  vars: Readonly<Record<string, string>>,
): Promise<void> {
  for (const id of [...applicationIds].sort()) await lockApplication(tx.knex, id);
  const held = await EnvironmentVariable.query(tx.knex)
    .whereIn("applicationId", applicationIds)
    .select("applicationId", "key", "valueEncrypted");
  const fieldErrors: Record<string, string[]> = {};
  applicationIds.forEach((id, i) => {
    const values = new Map(
      held
        .filter((v) => v.applicationId === id)
        .map((v) => [v.key, tx.services.secrets.decrypt(v.valueEncrypted)] as const),
    );
    const before = { count: values.size, bytes: variablesBytes(values) };
    for (const [key, value] of Object.entries(vars)) values.set(key, value);
    const problem =
      variableLimitProblem(before.count, values.size) ?? variableSizeProblem(before.bytes, variablesBytes(values));
    if (problem) fieldErrors[`applicationIds.${i}`] = [problem];
  });
  const [field, messages] = Object.entries(fieldErrors)[0] ?? [];
  if (field) throw new BadUserInputError(`Invalid database: ${field}: ${messages![0]}`, { fieldErrors });
}

/**
 * `createDatabase`'s input: a site import's `database` (the same rules, the mysql/mariadb `root` check included) in
 * an environment, with the applications that get its variables.
 */
const createSchema = databaseSchema.safeExtend({
  environmentId: text(100),
  applicationIds: z
    .array(text(100))
    .max(50, "At most 50 applications")
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});

/**
 * `createDatabase` (owners and admins): a database in a visible environment, its password given or generated (then
 * answered once as `generatedPassword`),
 * and its automatic variables set on `applicationIds` (applications of the same environment the caller sees;
 * another id is `fieldErrors["applicationIds.<i>"]`, and so is one the automatic variables would take past the
 * variables limit, which counts them). Emits `database.created`.
 * @throws NotFoundError, ForbiddenError (role; the databases quota, naming it), BadUserInputError, ConflictError (the
 * environment has a database of that name).
 */
export async function createDatabaseIn(
  ctx: Context,
  raw: Omit<z.input<typeof createSchema>, "password"> & { password?: string | null },
): Promise<DatabaseChangePayload & { database: Database }> {
  const env = await manageableEnvironment(ctx, raw.environmentId, "database:manage");
  // Omitted, the password is generated before the check, which it always passes.
  const generated = raw.password == null;
  const input = parseInput(
    createSchema,
    { ...raw, password: raw.password ?? generateDatabasePassword() },
    "Invalid database",
  );
  const apps = await ctx.loaders.applications.byId.loadMany(input.applicationIds);
  const fieldErrors: Record<string, string[]> = {};
  apps.forEach((app, i) => {
    if (!app || app instanceof Error || app.environmentId !== env.id) {
      fieldErrors[`applicationIds.${i}`] = ["Not an application of this environment"];
    }
  });
  if (Object.keys(fieldErrors).length) {
    throw new BadUserInputError("Invalid database: applicationIds: Not an application of this environment", {
      fieldErrors,
    });
  }
  const spec: DatabaseSpec = {
    type: input.type,
    name: input.name,
    user: input.user,
    password: input.password,
  };
  return withTransaction(ctx, async (tx) => {
    const serviceHost = databaseServiceHost(
      newAppName(input.name),
      env.organizationId,
      tx.services.config.SKIFF_CLUSTER_DOMAIN,
    );
    const database = await createDatabase(tx, {
      ...spec,
      organizationId: env.organizationId,
      projectId: env.projectId,
      environmentId: env.id,
      serviceHost,
    });
    const vars = databaseEnvVars(spec, serviceHost);
    await requireVariableRoom(tx, input.applicationIds, vars);
    for (const id of input.applicationIds) await setEnvironmentVariables(tx, id, vars);
    await markNeedsDeployment(tx.knex, input.applicationIds);
    await events.emit(tx, "database.created", {
      organizationId: env.organizationId,
      data: { database: databaseRef(database), application_ids: input.applicationIds, ...changedBy(tx) },
    });
    return {
      database,
      applications: input.applicationIds.map((id) => ({ id })),
      generatedPassword: generated ? spec.password : null,
    };
  });
}

/**
 * `rotateDatabasePassword` (owners and admins): stores `password` (or a generated one); every derived variable
 * that still holds the old value (`DB_PASSWORD`, `DATABASE_URL`, `MONGO_URL`) gets the new one, and those
 * applications need a deployment. Emits `database.password_rotated`.
 * @throws NotFoundError, ForbiddenError, BadUserInputError (`fieldErrors.password`).
 */
export async function rotateDatabasePassword(
  ctx: Context,
  id: string,
  rawPassword: string | null | undefined,
): Promise<DatabaseChangePayload & { database: Database }> {
  await manageableDatabase(ctx, id);
  const { password } = parseInput(
    z.strictObject({ password: optional(databasePasswordSchema) }),
    { password: rawPassword },
    "Invalid password",
  );
  return withTransaction(ctx, async (tx) => {
    const locked = await lockDatabase(tx.knex, id);
    // Deleted by a concurrent call since the check above: as any unknown id.
    if (!locked) throw new NotFoundError("Database", id);
    const before = databaseSpecOf(tx, locked);
    const after: DatabaseSpec = { ...before, password: password ?? generateDatabasePassword() };
    const oldVars = databaseEnvVars(before, locked.serviceHost);
    const newVars = databaseEnvVars(after, locked.serviceHost);
    const users = await derivedVariables(tx, locked, before);
    const database = await replaceDatabasePassword(tx, id, after.password);
    for (const [applicationId, held] of users) {
      const follow = Object.fromEntries(
        [...held.keys()].filter((key) => oldVars[key] !== newVars[key]).map((key) => [key, newVars[key]!]),
      );
      await setEnvironmentVariables(tx, applicationId, follow);
    }
    const applicationIds = [...users.keys()];
    await markNeedsDeployment(tx.knex, applicationIds);
    await events.emit(tx, "database.password_rotated", {
      organizationId: locked.organizationId,
      data: { database: databaseRef(database), application_ids: applicationIds, ...changedBy(tx) },
    });
    return {
      database,
      applications: applicationIds.map((appId) => ({ id: appId })),
      generatedPassword: password === undefined ? after.password : null,
    };
  });
}

/**
 * `deleteDatabase` (owners and admins): removes the derived variables that still hold the database's values from
 * the applications using it (they need a deployment), then the database. Emits `database.deleted`. Of concurrent
 * deletions of one database, one succeeds and the others find it gone (NOT_FOUND).
 * @throws NotFoundError, ForbiddenError.
 */
export async function deleteDatabase(
  ctx: Context,
  id: string,
): Promise<{ id: string; affectedApplications: Array<{ id: string }> }> {
  await manageableDatabase(ctx, id);
  return withTransaction(ctx, async (tx) => {
    const locked = await lockDatabase(tx.knex, id);
    // Deleted by a concurrent call since the check above: that call is the one that deleted it.
    if (!locked) throw new NotFoundError("Database", id);
    const users = await derivedVariables(tx, locked, databaseSpecOf(tx, locked));
    for (const [applicationId, held] of users) {
      await EnvironmentVariable.query(tx.knex)
        .where({ applicationId })
        .whereIn("key", [...held.keys()])
        .delete();
    }
    const applicationIds = [...users.keys()];
    await markNeedsDeployment(tx.knex, applicationIds);
    await deleteDatabaseRow(tx, id);
    await events.emit(tx, "database.deleted", {
      organizationId: locked.organizationId,
      data: {
        database: { ...databaseRef(locked), service_host: locked.serviceHost },
        application_ids: applicationIds,
        ...changedBy(tx),
      },
    });
    return { id, affectedApplications: applicationIds.map((appId) => ({ id: appId })) };
  });
}
