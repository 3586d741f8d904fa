/**
 * Creating, changing and deleting applications one by one (GraphQL `createApplication`, `updateApplication`,
 * `deleteApplication`): the source, build and port rules and the prerequisites are a site import's (one
 * implementation: application.input.ts, application.prerequisites.ts), the applications quota is checked in the
 * same transaction (application.service.ts), and each change emits its `application.*` event in that transaction.
 */
import { z } from "zod";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { BadUserInputError } from "../../shared/errors.ts";
import { nameText, optional, text } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput, toBadUserInput } from "../../shared/validate.ts";
import type { Context } from "../context.ts";
import { events } from "../events.ts";
import { healthPathSchema, portSchema, sourceSchema } from "./application.input.ts";
import { Application } from "./application.model.ts";
import { ensureApplicationPrerequisites } from "./application.prerequisites.ts";
import { applicationNameTakenMessage, createApplication, newAppName, storedSource } from "./application.service.ts";
import { lockApplication, manageableApplication, manageableEnvironment } from "./manage.access.ts";
import { applicationRef, changedBy } from "./manage.events.ts";

const createSchema = z.strictObject({
  environmentId: text(100),
  name: nameText(100),
  source: sourceSchema,
  port: portSchema.nullish().transform((v) => v ?? 80),
});

/**
 * `createApplication`: a new application in a visible environment (owners and admins), not deployed
 * (`needsDeployment` true). Emits `application.created`.
 * @throws NotFoundError, ForbiddenError (role; the applications quota, naming it), BadUserInputError,
 * ConflictError (the environment has an application of that name).
 */
export async function createApplicationIn(ctx: Context, raw: z.input<typeof createSchema>): Promise<Application> {
  const env = await manageableEnvironment(ctx, raw.environmentId, "application:manage");
  const input = parseInput(createSchema, raw, "Invalid application");
  return withTransaction(ctx, async (tx) => {
    await ensureApplicationPrerequisites(tx, env.organizationId, input.source);
    const app = await createApplication(tx, {
      organizationId: env.organizationId,
      projectId: env.projectId,
      environmentId: env.id,
      name: input.name,
      appName: newAppName(input.name),
      ...storedSource(input.source),
      port: input.port,
    });
    await events.emit(tx, "application.created", {
      organizationId: app.organizationId,
      data: { application: applicationRef(app), environment_id: env.id, ...changedBy(tx) },
    });
    return app;
  });
}

/** The source fields `updateApplication` takes one by one (patched into the current source). */
const SOURCE_FIELDS = ["branch", "buildPath", "buildType", "dockerImage"] as const;

const updateSchema = z.strictObject({
  name: optional(nameText(100)),
  source: sourceSchema.optional(),
  port: optional(portSchema),
  healthPath: optional(healthPathSchema),
});

/** The stored source of `app` in the import request's shape (null when the application has no source type). */
function currentSource(app: Application): Record<string, unknown> | null {
  if (!app.sourceType) return null;
  const s = app.source ?? {};
  const out: Record<string, unknown> = {
    type: app.sourceType,
    repo: s.repo,
    branch: s.branch,
    buildPath: s.buildPath,
    buildType: app.buildType ?? undefined,
    dockerImage: s.dockerImage,
    githubId: app.sourceType === "github" ? s.gitProviderId : undefined,
    gitlabId: app.sourceType === "gitlab" ? s.gitProviderId : undefined,
    customGitUrl: s.customGitUrl,
    customGitSSHKeyId: s.customGitSSHKeyId,
  };
  for (const key of Object.keys(out)) if (out[key] == null) delete out[key];
  return out;
}

/** Input of {@link updateApplication} (GraphQL `UpdateApplicationInput`). */
export interface UpdateApplicationRaw {
  name?: string | null;
  source?: Record<string, unknown> | null;
  branch?: string | null;
  buildPath?: string | null;
  buildType?: string | null;
  dockerImage?: string | null;
  port?: number | null;
  healthPath?: string | null;
}

/**
 * `updateApplication`: changes the given fields (owners and admins). `source` replaces the source; `branch`,
 * `buildPath`, `buildType` and `dockerImage` patch the current one (not given with `source`: BAD_USER_INPUT naming
 * them); the result is checked with the import's rules
 * (errors of a patched field under its own name) and prerequisites. A change of anything but the name sets
 * `needsDeployment`. Emits `application.updated` with the changed fields (nothing changed: no event).
 * @throws NotFoundError, ForbiddenError, BadUserInputError, ConflictError (the environment has an application of the
 * new name).
 */
export async function updateApplication(ctx: Context, id: string, raw: UpdateApplicationRaw): Promise<Application> {
  const visible = await manageableApplication(ctx, id);
  const patched = SOURCE_FIELDS.filter((f) => raw[f] != null);
  let source: Record<string, unknown> | undefined = raw.source ?? undefined;
  if (source && patched.length) {
    // One value per field: `source.dockerImage` and `dockerImage` together would leave one of them unsaid.
    const message = "Given with source: set it inside source, or leave source out";
    throw new BadUserInputError(`Invalid application: ${patched.join(", ")}: ${message}`, {
      fieldErrors: Object.fromEntries(patched.map((f) => [f, [message]])),
    });
  }
  if (patched.length) {
    const base = source ?? currentSource(visible);
    if (!base) {
      throw new BadUserInputError("Invalid application: source: Required to change the source's fields", {
        fieldErrors: { source: ["Required: this application has no source yet"] },
      });
    }
    source = { ...base, ...Object.fromEntries(patched.map((f) => [f, raw[f]])) };
  }
  const parsed = updateSchema.safeParse({ name: raw.name, source, port: raw.port, healthPath: raw.healthPath });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[1];
      if (issue.path[0] === "source" && patched.includes(field as (typeof SOURCE_FIELDS)[number]) && !raw.source) {
        (issue as { path: PropertyKey[] }).path = issue.path.slice(1);
      }
    }
    throw toBadUserInput(parsed.error, "Invalid application");
  }
  const input = parsed.data;
  return withTransaction(ctx, async (tx) => {
    const app = await lockApplication(tx.knex, id);
    const patch: Partial<Application> = {};
    const changed: string[] = [];
    if (input.name !== undefined && input.name !== app.name) {
      patch.name = input.name;
      changed.push("name");
    }
    if (input.source) {
      const stored = storedSource(input.source);
      const before = JSON.stringify([app.sourceType, currentSource(app), app.buildType]);
      const after = { ...app, ...stored } as Application;
      if (JSON.stringify([after.sourceType, currentSource(after), after.buildType]) !== before) {
        await ensureApplicationPrerequisites(tx, app.organizationId, input.source);
        Object.assign(patch, stored);
        changed.push("source");
      }
    }
    if (input.port !== undefined && input.port !== app.port) {
      patch.port = input.port;
      changed.push("port");
    }
    if (input.healthPath !== undefined && input.healthPath !== app.healthPath) {
      patch.healthPath = input.healthPath;
      changed.push("healthPath");
    }
    if (!changed.length) return app;
    if (changed.some((f) => f !== "name")) patch.needsDeployment = true;
    const [updated] = await translateUniqueViolations(
      () =>
        Application.query(tx.knex)
          .patch({ ...patch, updatedAt: new Date() })
          .where({ id })
          .returning("*"),
      {
        applications_environment_id_name_unique: {
          message: applicationNameTakenMessage(input.name ?? app.name),
          field: "name",
        },
      },
    );
    await events.emit(tx, "application.updated", {
      organizationId: app.organizationId,
      data: { application: applicationRef(updated!), fields: changed, ...changedBy(tx) },
    });
    return updated!;
  });
}

/**
 * `deleteApplication` (owners and admins): the application and, by cascade, its domains, variables, deployments
 * and grants. Emits `application.deleted` (with its slug and hosts, for the removal of its cluster objects).
 * @returns the id. @throws NotFoundError, ForbiddenError.
 */
export async function deleteApplication(ctx: Context, id: string): Promise<string> {
  await manageableApplication(ctx, id);
  return withTransaction(ctx, async (tx) => {
    const app = await lockApplication(tx.knex, id);
    const hosts: string[] =
      (await tx.knex("domains").where({ application_id: id }).orderBy("host").pluck("host")) ?? [];
    await Application.query(tx.knex).deleteById(id);
    await events.emit(tx, "application.deleted", {
      organizationId: app.organizationId,
      data: {
        application: { ...applicationRef(app), app_name: app.appName },
        environment_id: app.environmentId,
        hosts,
        ...changedBy(tx),
      },
    });
    return id;
  });
}
