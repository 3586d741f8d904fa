/**
 * Executes one run of a site import (spec: "Import status"): the shared checks, then project (with its
 * `production` environment), database, application with its environment variables, domain and deployment,
 * each step in its own transaction that also records the created id on the import, so a failure never leaves
 * half a step behind and the record always knows what exists. Ends in success, partial (something was
 * created) or failed (nothing created), and publishes each status change after commit.
 */
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { AppError, BadUserInputError } from "../../shared/errors.ts";
import {
  createApplication,
  createDomain,
  newAppName,
  setEnvironmentVariables,
} from "../applications/application.service.ts";
import type { ServiceContext } from "../context.ts";
import { createDatabase, databaseEnvVars, databaseServiceHost } from "../databases/database.service.ts";
import { queueDeployment } from "../deployments/deployment.service.ts";
import { createProjectWithProduction } from "../projects/project.service.ts";
import { checkApplicationPrerequisites, checkImport } from "./site-import.checks.ts";
import { publishSiteImportChange } from "./site-import.events.ts";
import { type ImportStep, SiteImport } from "./site-import.model.ts";
import type { SiteImportRequest } from "./site-import.schema.ts";

type Progress = Partial<
  Pick<SiteImport, "projectId" | "databaseId" | "applicationId" | "domainId" | "databaseServiceHost">
>;

/** Records created ids on the import inside the step's transaction. */
async function recordProgress(trx: Knex.Transaction, importId: string, progress: Progress): Promise<void> {
  await SiteImport.query(trx)
    .patch({ ...progress, updatedAt: new Date() })
    .where("id", importId);
}

/** Sets the final state of a run and returns the updated record. */
async function finish(
  db: Knex | Knex.Transaction,
  importId: string,
  outcome: Pick<SiteImport, "status" | "errorStep" | "errorMessage"> & { deploymentId?: string },
): Promise<SiteImport> {
  const now = new Date();
  const [row] = await SiteImport.query(db)
    .patch({ ...outcome, updatedAt: now, finishedAt: now })
    .where("id", importId)
    .returning("*");
  if (!row) throw new Error(`Site import ${importId} vanished during its run`);
  return row;
}

/**
 * Runs `input` for the pending import `record` and returns the finished record (status success, partial or
 * failed with errorStep and errorMessage). The shared checks run first: any problem fails the import at the
 * step of the first problem with nothing created. Expected failures (conflicts, quotas, prerequisites) keep their
 * message; unexpected ones are logged with an `errorId` that the message quotes.
 * @throws only when the database cannot record the outcome (the record then stays pending).
 */
export async function runImport(
  ctx: ServiceContext,
  record: SiteImport,
  input: SiteImportRequest,
): Promise<SiteImport> {
  const { knex, log } = ctx;
  const { config } = ctx.services;
  const org = record.organizationId;
  let step: ImportStep = "project_creation";
  let somethingCreated = false;
  /** Runs one step in its own transaction; `tx.knex` is that transaction. */
  const inStep = <T>(name: ImportStep, work: (tx: ServiceContext & { knex: Knex.Transaction }) => Promise<T>) => {
    step = name;
    return knex.transaction((trx) => work({ ...ctx, knex: trx }));
  };
  let final: SiteImport;
  try {
    const check = await checkImport(ctx, org, input);
    if (check.problems.length) {
      const failed = await finish(knex, record.id, {
        status: "failed",
        errorStep: check.problems[0]!.step,
        errorMessage: check.problems.map((p) => p.message).join("; "),
      });
      await publishSiteImportChange(ctx, failed);
      return failed;
    }

    const appName = newAppName(input.name);
    const { project, environment } = await inStep("project_creation", async (tx) => {
      const created = await createProjectWithProduction(tx, { organizationId: org, name: input.name });
      await recordProgress(tx.knex, record.id, { projectId: created.project.id });
      return created;
    });
    somethingCreated = true;
    const placement = { organizationId: org, projectId: project.id, environmentId: environment.id };

    let generatedVars: Record<string, string> = {};
    if (input.database) {
      const spec = input.database;
      const serviceHost = databaseServiceHost(appName, config.SKIFF_CLUSTER_DOMAIN);
      await inStep("database_creation", async (tx) => {
        const database = await createDatabase(tx, { ...placement, ...spec, serviceHost });
        await recordProgress(tx.knex, record.id, { databaseId: database.id, databaseServiceHost: serviceHost });
      });
      generatedVars = databaseEnvVars(spec, serviceHost);
    }

    const application = await inStep("application_creation", async (tx) => {
      const problems = await checkApplicationPrerequisites(tx, org, input.source);
      if (problems.length) throw new BadUserInputError(problems.join("; "));
      const {
        type,
        repo,
        branch,
        buildPath,
        buildType,
        dockerImage,
        githubId,
        gitlabId,
        customGitUrl,
        customGitSSHKeyId,
      } = input.source;
      const app = await createApplication(tx, {
        ...placement,
        name: input.name,
        appName,
        sourceType: type,
        source: {
          repo,
          branch,
          buildPath,
          dockerImage,
          gitProviderId: githubId ?? gitlabId,
          customGitUrl,
          customGitSSHKeyId,
        },
        buildType,
        port: input.port,
      });
      // Request values are merged after the generated ones and win (spec: Automatic environment variables).
      await setEnvironmentVariables(tx, app.id, { ...generatedVars, ...input.envVars });
      await recordProgress(tx.knex, record.id, { applicationId: app.id });
      return app;
    });

    if (input.domain) {
      const host = input.domain;
      await inStep("domain_creation", async (tx) => {
        const domain = await createDomain(tx, { organizationId: org, applicationId: application.id, host });
        await recordProgress(tx.knex, record.id, { domainId: domain.id });
      });
    }

    final = await inStep("deployment", async (tx) => {
      const deployment = await queueDeployment(tx, {
        applicationId: application.id,
        title: `Site import: ${input.name}`,
        description: `Queued by site import ${record.id}`,
        trigger: "import",
      });
      return finish(tx.knex, record.id, {
        status: "success",
        errorStep: null,
        errorMessage: null,
        deploymentId: deployment.id,
      });
    });
  } catch (error) {
    let message: string;
    if (error instanceof AppError) {
      message = error.message;
    } else {
      const errorId = randomUUID();
      log.error({ err: error, errorId, importId: record.id, step }, "site import step failed");
      message = `Unexpected error during ${step}; nothing of this step was kept (errorId ${errorId})`;
    }
    final = await finish(knex, record.id, {
      status: somethingCreated ? "partial" : "failed",
      errorStep: step,
      errorMessage: message,
    });
  }
  await publishSiteImportChange(ctx, final);
  return final;
}
