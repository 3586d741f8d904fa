/**
 * Deployment writes (spec "States and transitions"): queueing (a newer queued deployment supersedes the older queued
 * ones of the same application: they end `cancelled`), the manual triggers `deployApplication`, `cancelDeployment` and
 * `redeployDeployment`, and reading a deployment's log. The work itself is the `deployments.run` job
 * (deployment.run.ts), serialised per application by its queue `deploy:<applicationId>`.
 */
import type { Knex } from "knex";
import { z } from "zod";
import { ConflictError, NotFoundError } from "../../shared/errors.ts";
import { text } from "../../shared/input-fields.ts";
import { storableText } from "../../shared/storable-text.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import {
  applicationById,
  clearNeedsDeployment,
  lockApplication,
  provideApplicationDeployer,
  setApplicationStatus,
  settleDeployingApplication,
} from "../applications/index.ts";
import { noteAuditTarget } from "../audit/index.ts";
import type { Context, ServiceContext } from "../context.ts";
import { publishDeploymentChange } from "./deployment.events.ts";
import {
  Deployment,
  type DeploymentLogLine,
  type DeploymentStatus,
  type DeploymentTrigger,
} from "./deployment.model.ts";
import { statusOfHealth } from "./health.ts";

/** Name of the job that runs one deployment. */
export const RUN_DEPLOYMENT_JOB = "deployments.run";

/** The serial queue of an application's deployments (one at a time per application, across instances). */
export function deploymentQueue(applicationId: string): string {
  return `deploy:${applicationId}`;
}

/**
 * The job key of deployment `deploymentId`'s run: a deployment that ends before its run starts (superseded or
 * cancelled while `queued`) takes its job out of the application's queue, where the job would otherwise hold the
 * queue for a turn only to find nothing to do.
 */
function runJobKey(deploymentId: string): string {
  return `deployment-run:${deploymentId}`;
}

/** What {@link queueDeployment} takes. */
export interface QueueDeploymentInput {
  applicationId: string;
  title: string;
  description?: string | null;
  trigger: DeploymentTrigger | string;
  commitSha?: string | null;
}

/**
 * Queues a deployment of `applicationId` in the caller's transaction (a new one when `ctx.knex` is the pool):
 * older `queued` deployments of the application become `cancelled` (superseded), the new row is `queued`, and a
 * `deployments.run` job is enqueued on the application's queue (the superseded ones' jobs are removed from it);
 * `deploymentUpdated` reports the new row (`queued`) and the superseded ones (`cancelled`) when the transaction
 * commits. The audit entry of the mutation it runs in names it ({@link noteAuditTarget}). No access check: callers
 * check.
 * @returns the new deployment.
 */
export async function queueDeployment(ctx: ServiceContext, input: QueueDeploymentInput): Promise<Deployment> {
  return withTransaction(ctx, async (tx) => {
    // Lock the application row (concurrent triggers of one application queue one after the other); the new
    // deployment takes the application's current settings, so it no longer needs one.
    await clearNeedsDeployment(tx.knex, input.applicationId);
    const now = ctx.services.now();
    const superseded: { id: string }[] = await tx
      .knex("deployments")
      .where({ application_id: input.applicationId, status: "queued" })
      .update({ status: "cancelled", finished_at: now, error_message: "superseded by a newer deployment" })
      .returning("id");
    const deployment = await Deployment.query(tx.knex)
      .insert({
        applicationId: input.applicationId,
        status: "queued",
        title: input.title,
        description: input.description ?? null,
        trigger: input.trigger,
        commitSha: input.commitSha ?? null,
      })
      .returning("*");
    await ctx.services.jobs.remove(
      tx.knex,
      superseded.map(({ id }) => runJobKey(id)),
    );
    await ctx.services.jobs.enqueue(
      tx.knex,
      RUN_DEPLOYMENT_JOB,
      { deploymentId: deployment.id },
      { queueName: deploymentQueue(input.applicationId), jobKey: runJobKey(deployment.id) },
    );
    // Live pages see the new row and the superseded ones at commit (NOTIFY inside the transaction).
    const changes = [
      ...superseded.map(({ id }) => ({ id, applicationId: input.applicationId, status: "cancelled" as const })),
      { id: deployment.id, applicationId: input.applicationId, status: "queued" as const },
    ];
    for (const change of changes) await publishDeploymentChange(ctx, change, tx.knex);
    // The mutation that queued it names it, whatever it answers (`setEnvironmentVariable(deploy: true)`: the
    // application).
    noteAuditTarget(tx, deployment.id);
    return deployment;
  });
}

provideApplicationDeployer(queueDeployment);

/** The visible application `applicationId` and the caller's right to deploy it. @throws NotFoundError, ForbiddenError. */
async function deployableApplication(ctx: Context, applicationId: string) {
  const app = await ctx.loaders.applications.byId.load(applicationId);
  if (!app) throw new NotFoundError("Application", applicationId);
  await organizationAccess(ctx.scope, { organizationId: app.organizationId, action: "application:deploy" });
  return app;
}

/** The visible deployment `id`. @throws NotFoundError. */
async function visibleDeployment(ctx: Context, id: string): Promise<Deployment> {
  const deployment = await ctx.loaders.deployments.byId.load(id);
  if (!deployment) throw new NotFoundError("Deployment", id);
  return deployment;
}

/** A manual deployment's title: one line of at most 200 characters; blank or absent means the default. */
const manualTitle = z.object({
  title: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : (v ?? undefined)),
    text(200).optional(),
  ),
});

/**
 * `deployApplication`: queues a manual deployment (owners, admins and members; spec role table).
 * @throws NotFoundError when the application is not visible; ForbiddenError for other roles; BadUserInputError for a
 * title over 200 characters or holding control characters.
 */
export async function deployApplication(
  ctx: Context,
  applicationId: string,
  rawTitle: string | null | undefined,
): Promise<Deployment> {
  const { title } = parseInput(manualTitle, { title: rawTitle });
  await deployableApplication(ctx, applicationId);
  return queueDeployment(ctx, { applicationId, title: title ?? "Manual deployment", trigger: "manual" });
}

/**
 * `cancelDeployment`: a `queued` deployment becomes `cancelled` (its job then does nothing); a `running` one too,
 * and its run stops waiting within a second (objects the `kubernetes` deployer already applied stay). The
 * application's status is settled in the same transaction ({@link settleApplicationStatus}).
 * @throws NotFoundError when not visible (or deleted meanwhile); ForbiddenError; ConflictError when it already ended,
 * naming its status as the locked row holds it.
 */
export async function cancelDeployment(ctx: Context, id: string): Promise<Deployment> {
  const visible = await visibleDeployment(ctx, id);
  await deployableApplication(ctx, visible.applicationId);
  const updated = await withTransaction(ctx, async (tx) => {
    // Lock order application → deployment, as queueDeployment and the run's transitions take them.
    await lockApplication(tx.knex, visible.applicationId);
    const current = await Deployment.query(tx.knex).findById(id).forUpdate();
    if (!current) throw new NotFoundError("Deployment", id);
    if (current.status !== "queued" && current.status !== "running")
      throw new ConflictError(
        `Deployment ${id} is ${current.status ?? "finished"}: only queued or running deployments can be cancelled`,
      );
    const now = ctx.services.now();
    const [row] = await Deployment.query(tx.knex)
      .where({ id })
      .patch({ status: "cancelled", finishedAt: now, errorMessage: "cancelled by a user" })
      .returning("*");
    if (current.status === "queued") await ctx.services.jobs.remove(tx.knex, [runJobKey(id)]);
    await settleApplicationStatus(tx.knex, current.applicationId, now);
    return row!;
  });
  await publishDeploymentChange(ctx, { id, applicationId: updated.applicationId, status: "cancelled" });
  return updated;
}

/** Application status an ended deployment leaves, by the deployment's status. */
const ENDED_APP_STATUS: Partial<Record<DeploymentStatus, string>> = { done: "running", error: "error" };

/**
 * Sets `applicationStatus` of application `applicationId` after one of its deployments changed status (spec
 * "States and transitions"; every start and end of a deployment, cancellation included, goes through here, in the
 * transaction of the change, which holds the application's lock): `deploying` while one of its deployments runs;
 * otherwise, leaving `deploying`, what its newest ended deployment left (`done` → `running`, `error` → `error`;
 * `idle` when none ended), or, when a health outcome was recorded after that deployment finished, what health made
 * of it (`healthy` → `running`, `unhealthy` → `error`, as health.ts sets it).
 */
export async function settleApplicationStatus(trx: Knex, applicationId: string, now: Date): Promise<void> {
  const deployments = () => trx("deployments").where({ application_id: applicationId });
  if (await deployments().where({ status: "running" }).first("id")) {
    await setApplicationStatus(trx, applicationId, "deploying", now);
    return;
  }
  const last: { status: DeploymentStatus; finishedAt: Date } | undefined = await deployments()
    .whereIn("status", Object.keys(ENDED_APP_STATUS))
    .orderBy("finished_at", "desc")
    .orderBy("id", "desc")
    .first("status", "finished_at");
  const app = await applicationById(trx, applicationId);
  if (!app) return;
  let status = last ? ENDED_APP_STATUS[last.status]! : "idle";
  const healthSince = last && app.healthCheckedAt && app.healthCheckedAt > last.finishedAt;
  if (healthSince && app.health !== "unknown") status = statusOfHealth(app.health);
  await settleDeployingApplication(trx, applicationId, status, now, deployments().where({ status: "running" }));
}

/**
 * `redeployDeployment`: queues a new deployment of the same application (and commit, when known), trigger
 * `redeploy`, titled after the original.
 * @throws NotFoundError when not visible; ForbiddenError.
 */
export async function redeployDeployment(ctx: Context, id: string): Promise<Deployment> {
  const original = await visibleDeployment(ctx, id);
  await deployableApplication(ctx, original.applicationId);
  return queueDeployment(ctx, {
    applicationId: original.applicationId,
    title: `Redeploy: ${original.title}`.slice(0, 200),
    description: `Redeploy of ${original.id}`,
    trigger: "redeploy",
    commitSha: original.commitSha,
  });
}

/** Appends a log line to deployment `deploymentId` (in `knex`'s transaction, if any). @returns the line. */
export async function appendDeploymentLog(
  knex: Knex,
  deploymentId: string,
  level: DeploymentLogLine["level"],
  text: string,
): Promise<DeploymentLogLine> {
  const [row] = await knex("deployment_logs")
    .insert({ deployment_id: deploymentId, level, text: storableText(text) })
    .returning(["at", "level", "text"]);
  return row as DeploymentLogLine;
}
