/**
 * Running one deployment (the `deployments.run` job; spec "States and transitions"). The job runs on the application's
 * serial queue, so at most one deployment of an application runs at a time, on any instance: the job runner holds
 * the queue's advisory lock for the whole run and puts off a second run (src/jobs/job-queue-lock.ts). Steps, each
 * committed on its own: `queued` → `running` (startedAt, application `deploying`, deploy.started), the deployer renders
 * and (for `kubernetes`) applies the manifests, after the objects of the organization's namespaces, then `done` with
 * the log line `deployment finished` (application `running`, deploy.succeeded) or `error` with the reason
 * (application `error`, deploy.failed); the application's status follows settleApplicationStatus
 * (deployment.service.ts). A deployment cancelled while it runs ends its log with `deployment cancelled: …`. A
 * deployment no longer `queued` when its job starts (cancelled or superseded) is skipped. A run that began applying
 * to a cluster enqueues a reconcile of its organization as it ends (reconcile.ts).
 */
import type { Logger } from "pino";
import { storableText } from "../../shared/storable-text.ts";
import { applicationById, lockApplication } from "../applications/index.ts";
import type { AppServices } from "../services.ts";
import { dryRunDeployer } from "./deployer.dry-run.ts";
import type { Deployer } from "./deployer.ts";
import { emitDeployEvent, publishDeploymentChange } from "./deployment.events.ts";
import { redactManifests } from "./deployment.manifests.ts";
import { Deployment, type DeploymentLogLine, type DeploymentStatus } from "./deployment.model.ts";
import { renderApplication, renderTenantOf } from "./deployment.render.ts";
import { appendDeploymentLog, settleApplicationStatus } from "./deployment.service.ts";
import { recordRolloutAvailability } from "./health.ts";
import { enqueueReconcile } from "./reconcile.ts";

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

/** A log line written with a status change, in its transaction. */
interface TransitionLine {
  level: DeploymentLogLine["level"];
  text: string;
}

/**
 * Moves deployment `id` to `status` in one transaction (times, `line` appended to its log, application status by
 * {@link settleApplicationStatus}, webhook event), then publishes the line (a line of the running deployment) and
 * the change. `from` guards the transition.
 * @returns the updated deployment, or null when it was not in `from` (nothing written).
 */
async function transition(
  services: AppServices,
  log: Logger,
  id: string,
  from: DeploymentStatus[],
  status: DeploymentStatus,
  patch: Partial<Deployment> = {},
  line?: TransitionLine,
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
    const written = line && (await appendDeploymentLog(trx, id, line.level, line.text));
    await settleApplicationStatus(trx, row.applicationId, now);
    await emitDeployEvent(trx, services, row);
    return { row, written };
  });
  if (!updated) return null;
  const { applicationId } = updated.row;
  if (updated.written) {
    // A line of the run, as subscribers see every other one, then the status change.
    const { at, level, text } = updated.written;
    await publishDeploymentChange(
      { services, log },
      { id, applicationId, status: "running", log: { at: new Date(at).toISOString(), level, text } },
    );
  }
  await publishDeploymentChange({ services, log }, { id, applicationId, status });
  return updated.row;
}

/**
 * Runs deployment `id` to its end (see the file comment). Never throws for a deployment failure: that ends the
 * deployment `error`; throws only when the database is unreachable.
 */
export async function runDeployment(services: AppServices, log: Logger, id: string): Promise<void> {
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
  /** Ends the run `status` with `line`, unless it was cancelled meanwhile: then its log ends saying so, why. */
  const end = async (status: "done" | "error", line: TransitionLine, whyCancelled: string, patch = {}) => {
    if (await transition(services, log, id, ["running"], status, patch, line)) return;
    await logCancellation(whyCancelled);
  };
  /** The last log line of a cancelled deployment (none unless it is `cancelled`: e.g. deleted with its application). */
  const logCancellation = async (reason: string) => {
    const row = await Deployment.query(services.knex).findById(id).select("status");
    if (row?.status !== "cancelled") return;
    await writeLog("warn", `deployment cancelled: ${reason}; objects already applied stay as they are`, "cancelled");
  };
  const deployer = await deployerFor(services);
  const cancellation = watchCancellation(services, id);
  /** The organization whose cluster the run applied to, once it began applying. */
  let applying: string | undefined;
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
    if (deployer.name === "kubernetes") applying = app.organizationId;
    await deployer.apply([...tenant, ...manifests], {
      deploymentId: id,
      log: (text, level = "info") => writeLog(level, text),
      signal: cancellation.signal,
      reportAvailability: async (available, detail) => {
        await recordRolloutAvailability(services, log, started.applicationId, available, detail);
      },
    });
    await end("done", { level: "info", text: "deployment finished" }, "the deployer finished after the cancellation");
  } catch (error) {
    // A cluster's message may hold what no text column can (a NUL): the deployment still ends, saying why.
    const message = storableText(error instanceof Error ? error.message : String(error));
    if (cancellation.signal.aborted) {
      // cancelDeployment settled the application's status in its own transaction.
      await logCancellation(message);
      return;
    }
    log.warn({ err: error, deploymentId: id }, "deployment failed");
    const line = { level: "error" as const, text: `deployment failed: ${message}` };
    await end("error", line, `the deployer failed after the cancellation: ${message}`, { errorMessage: message });
  } finally {
    cancellation.stop();
    // The run applied the render it made as it started: a domain or database removed while it ran, whose reconcile
    // ran before it ended, is deleted again by a reconcile after it (done, error or cancelled alike). Should this
    // enqueue fail, the periodic reconcile catches up.
    if (applying) {
      await enqueueReconcile(services, services.knex, applying, "change").catch((err: unknown) =>
        log.warn({ err, deploymentId: id }, "reconcile after the deployment not enqueued"),
      );
    }
  }
}
