/**
 * Running one deployment (the `deployments.run` job; spec "States and transitions"). The job runs on the application's
 * serial queue, so at most one deployment of an application runs at a time, on any instance: the job runner holds
 * the queue's advisory lock for the whole run and puts off a second run (src/jobs/job-queue-lock.ts). Steps, each
 * committed on its own: `queued` → `running` (startedAt, application `deploying`, deploy.started), the deployer renders
 * and (for `kubernetes`) applies the manifests, after the objects of the organization's namespaces, then `done` (application `running`, deploy.succeeded) or `error` with
 * the reason (application `error`, deploy.failed). A deployment no longer `queued` when its job starts (cancelled or
 * superseded) is skipped.
 */
import type { Logger } from "pino";
import {
  applicationById,
  applicationStatusOf,
  lockApplication,
  setApplicationStatus,
  settleDeployingApplication,
} from "../applications/index.ts";
import type { AppServices } from "../services.ts";
import { dryRunDeployer } from "./deployer.dry-run.ts";
import type { Deployer } from "./deployer.ts";
import { emitDeployEvent, publishDeploymentChange } from "./deployment.events.ts";
import { redactManifests } from "./deployment.manifests.ts";
import { Deployment, type DeploymentLogLine, type DeploymentStatus } from "./deployment.model.ts";
import { renderApplication, renderTenantOf } from "./deployment.render.ts";
import { appendDeploymentLog } from "./deployment.service.ts";
import { recordRolloutAvailability } from "./health.ts";

/**
 * The deployer chosen by SKIFF_DEPLOYER (deployer.ts; one file per deployer). The kubernetes one is imported on
 * first use: its client library holds ~26 MB of heap that instances with the dry-run deployer never need.
 */
export async function deployerFor(services: AppServices): Promise<Deployer> {
  switch (services.config.SKIFF_DEPLOYER) {
    case "kubernetes":
      return (await import("./deployer.kubernetes.ts")).createKubernetesDeployer(services.config);
    default:
      return dryRunDeployer;
  }
}

/** Milliseconds between two checks for a cancellation while the deployer runs. */
const CANCEL_CHECK_MS = 1_000;

/**
 * Watches deployment `id` while the deployer runs: aborts the returned signal once it is no longer `running`
 * (cancelled by `cancelDeployment`). Call `stop()` when the deployer is done.
 */
function watchCancellation(services: AppServices, id: string): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const timer = setInterval(() => {
    services
      .knex("deployments")
      .where({ id })
      .first("status")
      .then((row) => {
        if (row?.status !== "running") controller.abort();
      })
      .catch(() => {});
  }, CANCEL_CHECK_MS);
  timer.unref();
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

/** Application status while/after a deployment is in `status`. */
const APP_STATUS: Partial<Record<DeploymentStatus, string>> = { running: "deploying", done: "running", error: "error" };

/**
 * Moves deployment `id` to `status` in one transaction (times, application status, webhook event), then publishes
 * the change. `from` guards the transition. @returns the updated deployment, or null when it was not in `from`.
 */
async function transition(
  services: AppServices,
  log: Logger,
  id: string,
  from: DeploymentStatus[],
  status: DeploymentStatus,
  patch: Partial<Deployment> = {},
): Promise<Deployment | null> {
  const updated = await services.knex.transaction(async (trx) => {
    // Lock order application → deployment, as queueDeployment does (no deadlock with a concurrent trigger).
    await lockApplication(trx, trx("deployments").where({ id }).select("application_id"));
    const now = services.now();
    const [row] = await Deployment.query(trx)
      .whereIn("status", from)
      .where({ id })
      .patch({ status, ...(status === "running" ? { startedAt: now } : { finishedAt: now }), ...patch })
      .returning("*");
    if (!row) return null;
    const appStatus = APP_STATUS[status];
    if (appStatus) await setApplicationStatus(trx, row.applicationId, appStatus, now);
    await emitDeployEvent(trx, services, row);
    return row;
  });
  if (updated) await publishDeploymentChange({ services, log }, { id, applicationId: updated.applicationId, status });
  return updated;
}

/**
 * Runs deployment `id` to its end (see the file comment). Never throws for a deployment failure: that ends the
 * deployment `error`; throws only when the database is unreachable.
 */
export async function runDeployment(services: AppServices, log: Logger, id: string): Promise<void> {
  // The application's status before this deployment, restored when it is cancelled while running.
  const previousAppStatus = await applicationStatusOf(
    services.knex,
    services.knex("deployments").where({ id }).select("application_id"),
  );
  // `running` too: an attempt interrupted by a crash is resumed by the job's retry.
  const started = await transition(services, log, id, ["queued", "running"], "running", { errorMessage: null });
  if (!started) {
    log.info({ deploymentId: id }, "deployment no longer queued; skipped");
    return;
  }
  const writeLog = async (level: DeploymentLogLine["level"], text: string, status: DeploymentStatus = "running") => {
    const line = await appendDeploymentLog(services.knex, id, level, text);
    await publishDeploymentChange(
      { services, log },
      {
        id,
        applicationId: started.applicationId,
        status,
        log: { at: new Date(line.at).toISOString(), level, text },
      },
    );
  };
  const deployer = await deployerFor(services);
  const cancellation = watchCancellation(services, id);
  try {
    await writeLog("info", `deployment started (deployer ${deployer.name}, trigger ${started.trigger})`);
    const app = await applicationById(services.knex, started.applicationId);
    if (!app) throw new Error("the application no longer exists");
    const manifests = await renderApplication(services, app, started);
    await Deployment.query(services.knex)
      .findById(id)
      .patch({ manifests: redactManifests(manifests) });
    // The organization's namespaces first (tenant.manifests.ts): its objects go there. Not stored: not the app's.
    const tenant = deployer.name === "kubernetes" ? await renderTenantOf(services, app.organizationId) : [];
    await deployer.apply([...tenant, ...manifests], {
      deploymentId: id,
      log: (text, level = "info") => writeLog(level, text),
      signal: cancellation.signal,
      reportAvailability: async (available, detail) => {
        await recordRolloutAvailability(services, log, started.applicationId, available, detail);
      },
    });
    await writeLog("info", "deployment finished");
    await transition(services, log, id, ["running"], "done");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (cancellation.signal.aborted) {
      // The application's status first: whoever reads the cancellation's log line finds it restored already.
      await restoreApplicationStatus(services, started.applicationId, previousAppStatus ?? null);
      await writeLog("warn", `deployment cancelled: ${message}; objects already applied stay as they are`, "cancelled");
      return;
    }
    log.warn({ err: error, deploymentId: id }, "deployment failed");
    await writeLog("error", `deployment failed: ${message}`);
    await transition(services, log, id, ["running"], "error", { errorMessage: message });
  } finally {
    cancellation.stop();
  }
}

/**
 * After a running deployment was cancelled: the application leaves `deploying` for the status it had before
 * (`idle` when it had none or was already `deploying`), unless a newer deployment runs.
 */
async function restoreApplicationStatus(services: AppServices, applicationId: string, before: string | null) {
  const status = before && before !== "deploying" ? before : "idle";
  await settleDeployingApplication(
    services.knex,
    applicationId,
    status,
    services.now(),
    services.knex("deployments").where({ application_id: applicationId, status: "running" }),
  );
}
