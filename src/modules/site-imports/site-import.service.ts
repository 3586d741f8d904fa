/**
 * The site import API (spec: "Site import", "Import status", Errors, Limits), once for every surface:
 * GraphQL resolvers, the documented REST paths and the `siteImport.*` procedures all end here.
 * Permissions come from the access policy (`import:run`: owners and admins); visibility from the loaders
 * (another organization's record is NOT_FOUND exactly like a missing one).
 */

import type { Knex } from "knex";
import { newId } from "../../db/ids.ts";
import { ConflictError, NotFoundError } from "../../shared/errors.ts";
import { outsideExecutionTime } from "../../shared/execution-waits.ts";
import type { ConnectionModel } from "../../shared/pagination.ts";
import { onTransaction } from "../../shared/transaction.ts";
import { organizationAccess } from "../access/index.ts";
import { applicationsOfProject, newAppName } from "../applications/index.ts";
import type { Context } from "../context.ts";
import { databasesOfProject } from "../databases/index.ts";
import { deleteProject, lockProjectTree } from "../projects/index.ts";
import { checkImport } from "./site-import.checks.ts";
import { publishSiteImportChange, publishSiteImportDeleted } from "./site-import.events.ts";
import { claimIdempotencyKey, importOfKey, parseIdempotencyKey, requestDigest } from "./site-import.idempotency.ts";
import { sealInput, storedInput } from "./site-import.input.ts";
import { enqueueImportRun, ORPHANED_PENDING } from "./site-import.jobs.ts";
import { initialSteps, RETRYABLE_STATUSES, SiteImport } from "./site-import.model.ts";
import { parseSiteImportRequest, type SiteImportRequest } from "./site-import.schema.ts";
import { waitForRunEnd } from "./site-import.wait.ts";

/** A project deleted by an import's rollback or retry is announced to no webhook (spec doc 1, Events). */
const QUIET = { outbound: false };

/** The outcome of an import or retry: the finished record and the request it ran (GraphQL `SiteImportResult`). */
export interface ImportOutcome {
  record: SiteImport;
  input: SiteImportRequest;
}

/** Spec rule 6: what an import of the request would create, and whether it can. */
export interface ImportPreview {
  valid: boolean;
  resources: {
    project: { name: string };
    database: { type: string; name: string } | null;
    application: { name: string; sourceType: string; buildType: string | null };
    domain: { host: string } | null;
  };
  warnings: string[];
  errors: string[];
  /** The import an idempotency key already names for this request, else null. */
  existingImport: SiteImport | null;
}

/** One page of import records, newest first (GraphQL `SiteImportConnection`). */
export type SiteImportConnection = ConnectionModel<SiteImport>;

/** Result of {@link deleteSiteImport}. */
export interface SiteImportDeletion {
  id: string;
  rolledBack: boolean;
  /** The project deleted with the rollback (cascading to everything the import created), else null. */
  deletedProjectId: string | null;
}

/** A visible record and the caller's access to act on it. @throws NotFoundError, ForbiddenError. */
async function recordForAction(ctx: Context, id: string): Promise<SiteImport> {
  const record = await ctx.loaders.siteImports.byId.load(id);
  if (!record) throw new NotFoundError("Site import", id);
  await organizationAccess(ctx.scope, { organizationId: record.organizationId, action: "import:run" });
  return record;
}

/** The CONFLICT answered when the state table does not allow `action` in `record`'s status. */
function stateConflict(record: SiteImport, action: "retried" | "deleted"): ConflictError {
  if (record.status === "pending") {
    return new ConflictError(
      `Site import ${record.id} is still running (pending); it cannot be ${action} until it finishes`,
    );
  }
  return new ConflictError(
    `Site import ${record.id} has status ${record.status}; only partial or failed imports can be ${action}`,
  );
}

/**
 * Waits for the end of `record`'s run (at most SKIFF_IMPORT_WAIT_MS, less when the instance shuts down); the wait is
 * not execution time of the operation (its answer's fields resolve after it).
 */
async function awaitRun(ctx: Context, record: SiteImport): Promise<SiteImport> {
  return outsideExecutionTime(ctx, waitForRunEnd(ctx, record, ctx.services.config.SKIFF_IMPORT_WAIT_MS));
}

/**
 * Imports a site (spec: POST /api/site-import, `siteImport.import`): validates the request, then in one
 * transaction records a pending import and queues its run (job `imports.run`: project, database, application
 * with variables, domain and deployment in order; durable, see site-import.run.ts), and waits for the run's end
 * (at most SKIFF_IMPORT_WAIT_MS; past it the outcome's record is still pending and the run goes on).
 * With `idempotencyKey` (site-import.idempotency.ts), a key already bound to the same request answers that import
 * instead (waiting for its run the same way), with no new record and no new run.
 * Expected failures do not throw: the outcome's record has status partial or failed with errorStep/errorMessage.
 * @throws BadUserInputError (invalid request or key), NotFoundError (organization not the caller's),
 *   ForbiddenError (role), IdempotencyKeyReusedError (the key is bound to another request).
 */
export async function importSite(ctx: Context, raw: unknown, idempotencyKey?: unknown): Promise<ImportOutcome> {
  const input = parseSiteImportRequest(raw);
  const key = parseIdempotencyKey(idempotencyKey);
  await organizationAccess(ctx.scope, { organizationId: input.organizationId, action: "import:run" });
  const { services } = ctx;
  const record = await ctx.knex.transaction(async (trx) => {
    const id = newId("siteImport");
    if (key) {
      const claim = await claimIdempotencyKey(trx, {
        organizationId: input.organizationId,
        key,
        digest: requestDigest(services.secrets, input),
        siteImportId: id,
        ttlHours: services.config.SKIFF_IDEMPOTENCY_TTL_HOURS,
      });
      if (!claim.claimed) {
        const earlier = await SiteImport.query(trx).findById(claim.siteImportId);
        if (!earlier) throw new NotFoundError("Site import", claim.siteImportId);
        return earlier;
      }
    }
    const row = await SiteImport.query(trx)
      .insert({
        id,
        organizationId: input.organizationId,
        createdByUserId: ctx.caller?.userId ?? null,
        name: input.name,
        status: "pending",
        inputEncrypted: sealInput(services.secrets, input),
        appName: newAppName(input.name),
        steps: initialSteps(input),
      })
      .returning("*");
    await enqueueImportRun(services, trx, row.id, row.attempts);
    // In the transaction: delivered at its commit, before anything the run (a job, free to start then) publishes.
    await publishSiteImportChange(ctx, row, trx);
    return row;
  });
  return { record: await awaitRun(ctx, record), input };
}

/**
 * Checks a request without writing anything (spec rule 5 and 6): name conflicts, domain availability, source
 * configuration and prerequisites, plan quotas. The same checks gate {@link importSite}. With `idempotencyKey`, a
 * key already naming an import of this request makes that import the answer (`existingImport`; valid, no errors).
 * @throws BadUserInputError (invalid request or key), NotFoundError, ForbiddenError, IdempotencyKeyReusedError —
 *   as {@link importSite}.
 */
export async function previewSiteImport(ctx: Context, raw: unknown, idempotencyKey?: unknown): Promise<ImportPreview> {
  const input = parseSiteImportRequest(raw);
  const key = parseIdempotencyKey(idempotencyKey);
  await organizationAccess(ctx.scope, { organizationId: input.organizationId, action: "import:run" });
  const resources = {
    project: { name: input.name },
    database: input.database ? { type: input.database.type, name: input.database.name } : null,
    application: { name: input.name, sourceType: input.source.type, buildType: input.source.buildType },
    domain: input.domain ? { host: input.domain } : null,
  };
  const existingId = key
    ? await importOfKey(ctx.knex, {
        organizationId: input.organizationId,
        key,
        digest: requestDigest(ctx.services.secrets, input),
      })
    : null;
  const existingImport = existingId ? ((await SiteImport.query(ctx.knex).findById(existingId)) ?? null) : null;
  if (existingImport) {
    const note = `Already imported with idempotency key "${key}" as ${existingImport.id} (${existingImport.status}); importing with it answers that import`;
    return { valid: true, resources, warnings: [note], errors: [], existingImport };
  }
  const check = await checkImport(ctx, input.organizationId, input);
  return {
    valid: check.problems.length === 0,
    resources,
    warnings: check.warnings,
    errors: check.problems.map((p) => p.message),
    existingImport: null,
  };
}

/**
 * Retries a partial or failed import (spec: Import status, `siteImport.retry`): in one transaction the record
 * is claimed by a conditional UPDATE (status partial/failed → pending, attempts + 1, ids, errors and progress
 * cleared), the project of the previous run is deleted (cascading to everything it created) and the new run is
 * queued; then the call waits for the run like {@link importSite}. Idempotent (spec: `siteImport.retry`): of
 * concurrent retries of one record exactly one runs it and every one waits for that run and answers its outcome, as
 * does a retry of a record pending with a live run. A pending record whose run can no longer resume (no job left,
 * see ORPHANED_PENDING) counts as failed.
 * @throws NotFoundError, ForbiddenError; ConflictError when the status is success (no action but delete), or when
 * the previous run's project holds what the import did not create (an application, database or environment added).
 */
export async function retrySiteImport(ctx: Context, id: string): Promise<ImportOutcome> {
  await recordForAction(ctx, id);
  const { services } = ctx;
  const claimed = await ctx.knex.transaction(async (trx) => {
    const current = await SiteImport.query(trx).findById(id).forUpdate();
    if (!current) throw new NotFoundError("Site import", id);
    const [row] = await SiteImport.query(trx)
      .patch({
        status: "pending",
        errorStep: null,
        errorMessage: null,
        projectId: null,
        databaseId: null,
        applicationId: null,
        domainId: null,
        deploymentId: null,
        databaseServiceHost: null,
        finishedAt: null,
        appName: newAppName(current.name),
        steps: initialSteps(storedInput(services.secrets, current)),
        updatedAt: new Date(),
        attempts: trx.raw("attempts + 1") as unknown as number,
      })
      .where("id", id)
      .where((w) => w.whereIn("status", RETRYABLE_STATUSES as string[]).orWhereRaw(ORPHANED_PENDING))
      .returning("*");
    if (!row) {
      // Pending with a live run: the action is to wait (spec: Import status), so a repeated or concurrent retry
      // answers that run's outcome (`siteImport.retry` is idempotent); a success cannot be retried.
      if (current.status === "pending") return current;
      throw stateConflict(current, "retried");
    }
    if (current.projectId) {
      await assertOnlyImported(trx, current, "retried");
      await deleteProject(onTransaction(ctx, trx), current.projectId, QUIET);
    }
    await enqueueImportRun(services, trx, row.id, row.attempts);
    await publishSiteImportChange(ctx, row, trx); // delivered at commit, as in importSite
    return row;
  });
  const input = storedInput(services.secrets, claimed);
  return { record: await awaitRun(ctx, claimed), input };
}

/**
 * Refuses to delete the project of `record` when it holds what the import did not create (spec: a rollback or a
 * retry deletes the *created* resources): an application, a database or an environment added since, by name. The
 * import's own application, database and the environment it created with the project (in the same transaction: the
 * same `createdAt`) are its; what hangs from them (variables, domains, deployments) goes with them. The project and
 * its environments are locked first, for the rest of the transaction: nothing is created in it between this check
 * and the deletion (a creation waits, then finds the project gone).
 * @throws ConflictError naming what was added (nothing is deleted).
 */
async function assertOnlyImported(trx: Knex.Transaction, record: SiteImport, action: "retried" | "rolled back") {
  const projectId = record.projectId!;
  const tree = await lockProjectTree(trx, projectId);
  if (!tree) return;
  const [applications, databases] = await Promise.all([
    applicationsOfProject(trx, projectId),
    databasesOfProject(trx, projectId),
  ]);
  const added = [
    ...applications.filter((a) => a.id !== record.applicationId).map((a) => `application "${a.name}"`),
    ...databases.filter((d) => d.id !== record.databaseId).map((d) => `database "${d.name}"`),
    ...tree.environments
      .filter((e) => e.createdAt.getTime() !== tree.createdAt.getTime())
      .map((e) => `environment "${e.name}"`),
  ];
  if (added.length === 0) return;
  const shown = added.slice(0, 5).join(", ") + (added.length > 5 ? ` and ${added.length - 5} more` : "");
  const otherwise =
    action === "rolled back"
      ? "or delete the import without rollbackResources to keep everything"
      : "or import again under another name";
  throw new ConflictError(
    `The import cannot be ${action}: its project holds what the import did not create (${shown}). Delete those first, ${otherwise}.`,
  );
}

/**
 * Deletes an import record (spec: `siteImport.delete`). With `rollbackResources` the project it created is
 * deleted first, in the same transaction (cascading to database, application, variables, domain, deployments);
 * without, the resources remain. After commit, the deletion is published as status `deleted` (`siteImportUpdated`).
 * @throws NotFoundError, ForbiddenError; ConflictError while the import is pending with a live run, or when a
 * rollback would delete what the import did not create (an application, database or environment added since).
 */
export async function deleteSiteImport(
  ctx: Context,
  id: string,
  rollbackResources: boolean,
): Promise<SiteImportDeletion> {
  await recordForAction(ctx, id);
  const { result, record } = await ctx.knex.transaction(async (trx) => {
    const current = await SiteImport.query(trx).findById(id).forUpdate();
    if (!current) throw new NotFoundError("Site import", id);
    const deleted = await SiteImport.query(trx)
      .delete()
      .where("id", id)
      .where((w) => w.whereNot("status", "pending").orWhereRaw(ORPHANED_PENDING));
    if (!deleted) throw stateConflict(current, "deleted");
    const projectId = rollbackResources ? current.projectId : null;
    if (projectId) {
      await assertOnlyImported(trx, current, "rolled back");
      await deleteProject(onTransaction(ctx, trx), projectId, QUIET);
    }
    return { result: { id, rolledBack: rollbackResources, deletedProjectId: projectId }, record: current };
  });
  await publishSiteImportDeleted(ctx, record);
  return result;
}
