/**
 * Live deployment updates (GraphQL `deploymentUpdated(applicationId)`) and deploy webhook events (spec "Deploy
 * events"). Status changes and log lines are published after commit on topic `deployment` (PostgreSQL NOTIFY, so
 * every instance sees them); `deploy.started|succeeded|failed` are written through the webhook engine inside the
 * transaction of the status change, so a change that rolls back sends nothing.
 */
import type { Knex } from "knex";
import { NotFoundError } from "../../shared/errors.ts";
import { cursorOf, seqOfCursor } from "../../shared/event-log.ts";
import type { DomainEventData } from "../../shared/events/catalogue.ts";
import { eventStream } from "../../shared/pubsub.ts";
import { applicationSubject } from "../applications/index.ts";
import type { Context, ServiceContext } from "../context.ts";
import { events } from "../events.ts";
import type { AppServices } from "../services.ts";
import type { Deployment, DeploymentLogLine, DeploymentStatus } from "./deployment.model.ts";

/** Pub/sub topic of deployment changes: the live event's name (the manifest relays it: `liveRelay`). */
export const DEPLOYMENT_TOPIC = "deployment.updated";

/** Payload of one change (what travels through NOTIFY). `log` is set for a log line. */
export interface DeploymentChange {
  id: string;
  applicationId: string;
  status: DeploymentStatus;
  log?: { at: string; level: string; text: string };
}

/** What a subscriber receives: the status reported, the new log line if any, and the deployment as it is now. */
export interface DeploymentEvent {
  deploymentId: string;
  status: DeploymentStatus;
  logLine: DeploymentLogLine | null;
  deployment: Deployment | null;
  /** The event's position in the live-event log (src/shared/event-log.ts). */
  cursor: string;
}

/**
 * Emits a change as the live event `deployment.updated`: after commit, or with `transaction` inside it (delivered
 * when it commits). Failures to publish are logged, never thrown: live updates are best effort.
 */
export async function publishDeploymentChange(
  ctx: Pick<ServiceContext, "services" | "log">,
  change: DeploymentChange,
  transaction?: Knex,
): Promise<void> {
  const knex = transaction ?? ctx.services.knex;
  await events.emitLive({ knex, services: ctx.services, log: ctx.log }, DEPLOYMENT_TOPIC, { ...change });
}

/**
 * The updates of every deployment of `applicationId` the caller can see. Listening starts before the visibility
 * check, so nothing after the subscription is accepted is missed. With `after` (a cursor), the logged events after
 * it go first, through the same checks as live ones.
 * @throws NotFoundError when the application is not visible to the caller; BadUserInputError for a malformed
 *   `after`, CursorExpiredError for one older than the log's retention.
 */
export async function deploymentUpdates(
  ctx: Context,
  applicationId: string,
  after: string | null = null,
): Promise<AsyncIterableIterator<DeploymentEvent>> {
  const afterSeq = after === null ? undefined : seqOfCursor(after);
  const stream = eventStream<DeploymentEvent>(
    ctx.services.pubsub,
    DEPLOYMENT_TOPIC,
    async (payload, meta) => {
      const change = payload as unknown as DeploymentChange;
      if (change.applicationId !== applicationId || typeof change.id !== "string") return undefined;
      const deployment = await ctx.forEvent().loaders.deployments.byId.load(change.id);
      if (!deployment) return undefined;
      const logLine = change.log
        ? { at: new Date(change.log.at), level: change.log.level as DeploymentLogLine["level"], text: change.log.text }
        : null;
      return { deploymentId: change.id, status: change.status, logLine, deployment, cursor: cursorOf(meta.seq ?? 0) };
    },
    { route: { field: "applicationId", value: applicationId }, after: afterSeq },
  ); // only this application's events reach it
  try {
    if (!(await ctx.loaders.applications.byId.load(applicationId))) {
      throw new NotFoundError("Application", applicationId);
    }
    await stream.replayed;
  } catch (error) {
    await stream.return?.();
    throw error;
  }
  return stream;
}

/** The deploy event of a status, if it has one. */
const EVENT_OF_STATUS: Partial<Record<DeploymentStatus, "deploy.started" | "deploy.succeeded" | "deploy.failed">> = {
  running: "deploy.started",
  done: "deploy.succeeded",
  error: "deploy.failed",
};

/**
 * Emits the webhook event of `deployment`'s current status (`running` → deploy.started, `done` →
 * deploy.succeeded, `error` → deploy.failed) in `knex`'s transaction; other statuses emit nothing.
 * Data: `{ deployment: { deployment_id, status, title, trigger, commit_sha?, created_at, started_at?,
 * finished_at? }, application: { application_id, name, project_id }, error_message? }`.
 */
export async function emitDeployEvent(
  knex: Knex.Transaction,
  services: AppServices,
  deployment: Deployment,
): Promise<void> {
  const event = deployment.status ? EVENT_OF_STATUS[deployment.status] : undefined;
  if (!event) return;
  const app = await applicationSubject(knex, deployment.applicationId);
  if (!app) return;
  await events.emit({ knex, services }, event, {
    organizationId: app.organizationId,
    data: {
      deployment: deploymentData(deployment),
      application: { application_id: app.id, name: app.name, project_id: app.projectId },
      ...(deployment.status === "error" && deployment.errorMessage ? { error_message: deployment.errorMessage } : {}),
    },
  });
}

/** The `deployment` object of deploy event data. */
function deploymentData(d: Deployment): DomainEventData<"deploy.started">["deployment"] {
  return {
    deployment_id: d.id,
    status: d.status as DeploymentStatus, // emitted only for running, done and error
    title: d.title,
    trigger: d.trigger,
    ...(d.commitSha && { commit_sha: d.commitSha }),
    created_at: new Date(d.createdAt).toISOString(),
    ...(d.startedAt && { started_at: new Date(d.startedAt).toISOString() }),
    ...(d.finishedAt && { finished_at: new Date(d.finishedAt).toISOString() }),
  };
}
