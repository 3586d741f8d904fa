/**
 * Executes one run of a site import (spec: "Import status") inside the `imports.run` job
 * (site-import.jobs.ts): the shared checks, then project (with its `production` environment), database,
 * application with its environment variables, domain and deployment. Each step is one transaction that locks
 * the record, creates its resource and records the created id and the step's `done` on the record, so a crash
 * never leaves half a step behind and the record always knows what exists. A run interrupted by a crash (Skiff
 * or PostgreSQL) is retried by the job queue and resumes: steps already `done` are skipped, their resources are
 * reused from the record. Ends in success, partial (something was created) or failed (nothing created); every
 * committed step and the end are published (`siteImportUpdated`) after commit.
 */
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { isDatabaseUnavailable } from "../../shared/database-unavailable.ts";
import { AppError, BadUserInputError } from "../../shared/errors.ts";
import { onTransaction } from "../../shared/transaction.ts";
import {
  checkApplicationPrerequisites,
  createApplication,
  createDomain,
  newAppName,
  setEnvironmentVariables,
  storedSource,
} from "../applications/index.ts";
import { recordSystemChange } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import { createDatabase, databaseEnvVars, databaseServiceHost } from "../databases/index.ts";
import { queueDeployment } from "../deployments/index.ts";
import { createProjectWithProduction, Environment, PRODUCTION_ENVIRONMENT } from "../projects/index.ts";
import { checkImport } from "./site-import.checks.ts";
import { publishSiteImportChange } from "./site-import.events.ts";
import { storedInput } from "./site-import.input.ts";
import { IMPORT_STEPS, type ImportStep, type ImportSteps, SiteImport } from "./site-import.model.ts";

/** Prefix of the message of a run that was interrupted (crash, outage) and could not finish after resuming. */
export const INTERRUPTED_MESSAGE = "The import was interrupted (server or database stopped) and could not resume";

type Progress = Partial<
  Pick<SiteImport, "projectId" | "databaseId" | "applicationId" | "domainId" | "databaseServiceHost">
>;

/** The record is no longer this run's (deleted, finished or retried meanwhile, or another runner took the step). */
class RunSuperseded extends Error {
  override name = "RunSuperseded";
}

/** How the job runs this attempt. */
export interface RunOptions {
  /** True when an earlier attempt of this run was interrupted (crash, outage): failures then say so. */
  resumed: boolean;
  /** True on the job's last attempt: a database outage then ends the run instead of leaving it to a retry. */
  lastAttempt: boolean;
}

/** The SQL update of `steps` marking `step` as `status`. */
function stepPatch(db: Knex | Knex.Transaction, step: ImportStep, status: string): ImportSteps {
  return db.raw("steps || jsonb_build_object(?::text, ?::text)", [step, status]) as unknown as ImportSteps;
}

/** Locks the record of run `run` inside a step. @throws RunSuperseded when it is not this run's pending record. */
async function lockRun(trx: Knex.Transaction, importId: string, run: number, step: ImportStep): Promise<SiteImport> {
  const row = await SiteImport.query(trx).findById(importId).forUpdate();
  if (row?.status !== "pending" || row.attempts !== run || row.steps[step] === "done") {
    throw new RunSuperseded();
  }
  return row;
}

/** Records step `step` as done with the ids it created, inside the step's transaction. */
async function recordStep(trx: Knex.Transaction, importId: string, step: ImportStep, progress: Progress) {
  await SiteImport.query(trx)
    .patch({ ...progress, steps: stepPatch(trx, step, "done"), updatedAt: new Date() })
    .where("id", importId);
}

/**
 * Sets the final state of run `run` (only while that run's record is pending) and returns the updated record,
 * or null when the record is no longer this run's.
 */
export async function finishRun(
  db: Knex | Knex.Transaction,
  importId: string,
  run: number,
  outcome: Pick<SiteImport, "status" | "errorStep" | "errorMessage"> & { deploymentId?: string },
): Promise<SiteImport | null> {
  const now = new Date();
  const [row] = await SiteImport.query(db)
    .patch({
      ...outcome,
      ...(outcome.errorStep && { steps: stepPatch(db, outcome.errorStep, "failed") }),
      ...(outcome.status === "success" && { steps: stepPatch(db, "deployment", "done") }),
      updatedAt: now,
      finishedAt: now,
    })
    .where({ id: importId, status: "pending", attempts: run })
    .returning("*");
  return row ?? null;
}

/**
 * Ends run `run` of import `importId` as {@link finishRun} does and, when it ended it, records what the run made in
 * the audit log, in the same transaction (`system.site_import_finished`: the import and the project, database,
 * application, domain and deployment it created, as far as it got). The import's own entry (`importSite`) names the
 * import: what the run creates comes after the call's transaction.
 */
async function endRun(
  db: Knex | Knex.Transaction,
  importId: string,
  run: number,
  outcome: Parameters<typeof finishRun>[3],
): Promise<SiteImport | null> {
  const end = async (trx: Knex.Transaction) => {
    const row = await finishRun(trx, importId, run, outcome);
    if (!row) return null;
    const made = [row.projectId, row.databaseId, row.applicationId, row.domainId, row.deploymentId];
    await recordSystemChange(trx, {
      organizationId: row.organizationId,
      action: "system.site_import_finished",
      targetIds: [row.id, ...made.filter((id): id is string => id !== null)],
    });
    return row;
  };
  return db.isTransaction ? end(db as Knex.Transaction) : db.transaction(end);
}

/** The `production` environment of a project created by an earlier attempt. */
async function productionOf(knex: Knex, projectId: string): Promise<Environment | undefined> {
  return Environment.query(knex).where({ projectId, name: PRODUCTION_ENVIRONMENT }).first();
}

/**
 * Runs (or resumes) run `run` of the pending import `importId` and returns the finished record (status success,
 * partial or failed with errorStep and errorMessage), or null when there is nothing to do (the record is gone,
 * finished, or belongs to a newer run). The shared checks run first when nothing exists yet: any problem fails
 * the import at the step of the first problem with nothing created. Expected failures (conflicts, quotas,
 * prerequisites) keep their message (prefixed with {@link INTERRUPTED_MESSAGE} on a resumed run); unexpected
 * ones are logged with an `errorId` that the message quotes.
 * @throws when the database is unreachable (before the last attempt) or cannot record the outcome: the job is
 * retried and the run resumes.
 */
export async function runImport(
  ctx: ServiceContext,
  importId: string,
  run: number,
  options: RunOptions,
): Promise<SiteImport | null> {
  const { knex, log } = ctx;
  const { config, secrets } = ctx.services;
  const record = await SiteImport.query(knex).findById(importId);
  if (record?.status !== "pending" || record.attempts !== run) return null;
  const input = storedInput(secrets, record);
  const org = record.organizationId;
  const steps: ImportSteps = { ...record.steps };
  const done = (s: ImportStep) => steps[s] === "done";
  let step: ImportStep = IMPORT_STEPS.find((s) => steps[s] === "pending") ?? "deployment";

  /** Runs step `name` in its own transaction (on the locked record), then publishes the progress. */
  const inStep = async <T>(
    name: ImportStep,
    work: (tx: ServiceContext & { knex: Knex.Transaction }) => Promise<T>,
  ): Promise<T> => {
    step = name;
    const result = await knex.transaction(async (trx) => {
      await lockRun(trx, importId, run, name);
      return work(onTransaction(ctx, trx));
    });
    steps[name] = "done";
    if (name !== "deployment") await publishSiteImportChange(ctx, record);
    return result;
  };
  /** A resource an earlier attempt created, read from the record. @throws when it was deleted meanwhile. */
  const earlier = (id: string | null, what: string): string => {
    if (!id) throw new BadUserInputError(`The ${what} created by this import was deleted while the import ran`);
    return id;
  };

  let final: SiteImport | null;
  try {
    if (!IMPORT_STEPS.some(done)) {
      const check = await checkImport(ctx, org, input);
      if (check.problems.length) {
        const problem = check.problems[0]!;
        step = problem.step;
        throw new BadUserInputError(check.problems.map((p) => p.message).join("; "));
      }
    }

    const appName = record.appName ?? newAppName(input.name); // records of before durable runs have none
    let placement: { organizationId: string; projectId: string; environmentId: string };
    if (done("project_creation")) {
      const projectId = earlier(record.projectId, "project");
      const environment = await productionOf(knex, projectId);
      placement = { organizationId: org, projectId, environmentId: earlier(environment?.id ?? null, "environment") };
    } else {
      const { project, environment } = await inStep("project_creation", async (tx) => {
        const created = await createProjectWithProduction(tx, { organizationId: org, name: input.name });
        await recordStep(tx.knex, importId, "project_creation", { projectId: created.project.id });
        return created;
      });
      placement = { organizationId: org, projectId: project.id, environmentId: environment.id };
    }

    let generatedVars: Record<string, string> = {};
    if (input.database) {
      const spec = input.database;
      const serviceHost = record.databaseServiceHost ?? databaseServiceHost(appName, org, config.SKIFF_CLUSTER_DOMAIN);
      if (done("database_creation")) earlier(record.databaseId, "database");
      else {
        await inStep("database_creation", async (tx) => {
          const database = await createDatabase(tx, { ...placement, ...spec, serviceHost });
          await recordStep(tx.knex, importId, "database_creation", {
            databaseId: database.id,
            databaseServiceHost: serviceHost,
          });
        });
      }
      generatedVars = databaseEnvVars(spec, serviceHost);
    }

    let applicationId: string;
    if (done("application_creation")) applicationId = earlier(record.applicationId, "application");
    else {
      applicationId = await inStep("application_creation", async (tx) => {
        const problems = await checkApplicationPrerequisites(tx, org, input.source);
        if (problems.length) throw new BadUserInputError(problems.join("; "));
        const app = await createApplication(tx, {
          ...placement,
          name: input.name,
          appName,
          ...storedSource(input.source),
          port: input.port,
        });
        // Request values are merged after the generated ones and win (spec: Automatic environment variables).
        await setEnvironmentVariables(tx, app.id, { ...generatedVars, ...input.envVars });
        await recordStep(tx.knex, importId, "application_creation", { applicationId: app.id });
        return app.id;
      });
    }

    if (input.domain && !done("domain_creation")) {
      const host = input.domain;
      await inStep("domain_creation", async (tx) => {
        const domain = await createDomain(tx, { organizationId: org, applicationId, host });
        await recordStep(tx.knex, importId, "domain_creation", { domainId: domain.id });
      });
    }

    final = await inStep("deployment", async (tx) => {
      const deployment = await queueDeployment(tx, {
        applicationId,
        title: `Site import: ${input.name}`,
        description: `Queued by site import ${importId}`,
        trigger: "import",
      });
      return endRun(tx.knex, importId, run, {
        status: "success",
        errorStep: null,
        errorMessage: null,
        deploymentId: deployment.id,
      });
    });
  } catch (error) {
    if (error instanceof RunSuperseded) return null;
    const outage = isDatabaseUnavailable(error);
    if (outage && !options.lastAttempt) throw error; // the job is retried and resumes
    let message: string;
    if (outage) {
      message = `${INTERRUPTED_MESSAGE}: the database stayed unreachable during ${step}; retry or delete the import`;
    } else if (error instanceof AppError) {
      message = options.resumed ? `${INTERRUPTED_MESSAGE}: ${error.message}` : error.message;
    } else {
      const errorId = randomUUID();
      log.error({ err: error, errorId, importId, step }, "site import step failed");
      message = `Unexpected error during ${step}; nothing of this step was kept (errorId ${errorId})`;
    }
    final = await endRun(knex, importId, run, {
      status: IMPORT_STEPS.some(done) ? "partial" : "failed",
      errorStep: step,
      errorMessage: message,
    });
  }
  if (final) await publishSiteImportChange(ctx, final);
  return final;
}
