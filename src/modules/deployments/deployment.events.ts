/**
 * Live deployment updates (GraphQL `deploymentUpdated(applicationId)`) and deploy webhook events (spec "Deploy
 * events"). Status changes and log lines are published after commit on topic `deployment` (PostgreSQL NOTIFY, so
 * every instance sees them); `deploy.started|succeeded|failed` are written through the webhook engine inside the
 * transaction of the status change, so a change that rolls back sends nothing.
 */
import type { Knex } from "knex";
import { can } from "../../auth/access/policy.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { cursorOf, seqOfCursor } from "../../shared/event-log.ts";
import type { DomainEventData } from "../../shared/events/catalogue.ts";
import { END_OF_STREAM, type EventMeta, eventStream, oncePerEvent, shareableEvent } from "../../shared/pubsub.ts";
import { applicationIdsOfProject, applicationSubject } from "../applications/index.ts";
import type { Context, ServiceContext } from "../context.ts";
import { type EventSubscriber, events } from "../events.ts";
import type { AppServices } from "../services.ts";
import {
  Deployment,
  type DeploymentLogLine,
  type DeploymentStatus,
  type DeploymentTrigger,
} from "./deployment.model.ts";

/** Pub/sub topic of deployment changes: the live event's name (the manifest relays it: `liveRelay`). */
export const DEPLOYMENT_TOPIC = "deployment.updated";

/**
 * Payload of one change (what travels through NOTIFY). `log` is set for a log line. Status `deleted` says the
 * application was deleted (`id` is then the application's): its subscriptions complete.
 */
export interface DeploymentChange {
  id: string;
  applicationId: string;
  status: DeploymentStatus | typeof APPLICATION_DELETED;
  log?: { at: string; level: string; text: string };
}

/** The status of the change that ends an application's subscriptions: it was deleted. */
const APPLICATION_DELETED = "deleted";

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
 * What an event's subscribers on this instance receive, built once per event: the deployment read once (no
 * visibility: each subscriber's is decided from its connection's cached access), in one object shared by them all
 * (`shareableEvent`: their identical reads of its fields run once, src/server/shared-execution.ts). Null when the
 * deployment is gone or is not of the event's application.
 */
const eventOf = oncePerEvent<Promise<DeploymentEvent | null>>();

/** Builds the shared event of `change` (see {@link eventOf}): one statement. */
async function sharedEvent(knex: Knex, change: DeploymentChange, meta: EventMeta): Promise<DeploymentEvent | null> {
  const deployment = await Deployment.query(knex).findById(change.id);
  if (!deployment || deployment.applicationId !== change.applicationId) return null;
  const logLine = change.log
    ? { at: new Date(change.log.at), level: change.log.level as DeploymentLogLine["level"], text: change.log.text }
    : null;
  return shareableEvent({
    deploymentId: change.id,
    status: change.status as DeploymentStatus, // `deleted` ends the stream before the event is built
    logLine,
    deployment,
    cursor: cursorOf(meta.seq ?? 0),
  });
}

/**
 * The updates of every deployment of `applicationId` the caller can see. Listening starts before the visibility
 * check, so nothing after the subscription is accepted is missed. With `after` (a cursor), the logged events after
 * it go first, through the same checks as live ones. Fan-out: an event's deployment is read once per instance
 * whatever the number of subscribers, and each subscriber sees it while it may see the application — its
 * standing from the connection's cached access (no statement per subscriber and event), the application as the
 * subscription found it. The stream completes when the application is deleted (on its own or with its project).
 * @throws NotFoundError when the application is not visible to the caller; BadUserInputError for an `after` that
 *   is malformed or beyond the newest event of the log, CursorExpiredError for one older than the log's retention.
 */
export async function deploymentUpdates(
  ctx: Context,
  applicationId: string,
  after: string | null = null,
): Promise<AsyncIterableIterator<DeploymentEvent>> {
  const afterSeq = after === null ? undefined : seqOfCursor(after);
  // The application as the caller may see it (null: not visible), read once for the subscription.
  const application = ctx.loaders.applications.byId.load(applicationId);
  const knex = ctx.services.knex;
  const stream = eventStream<DeploymentEvent>(
    ctx.services.pubsub,
    DEPLOYMENT_TOPIC,
    async (payload, meta) => {
      const change = payload as unknown as DeploymentChange;
      if (change.applicationId !== applicationId || typeof change.id !== "string") return undefined;
      if (change.status === APPLICATION_DELETED) return END_OF_STREAM;
      const event = await eventOf(payload, () => sharedEvent(knex, change, meta));
      const app = await application;
      if (!event || !app) return undefined;
      const access = await ctx.scope.forOrg(app.organizationId);
      if (!access || !can(access, "application:see", { id: app.id, projectId: app.projectId })) return undefined;
      ctx.forEvent(); // fresh loaders for the nested fields that read through them
      return event;
    },
    { route: { field: "applicationId", value: applicationId }, after: afterSeq },
  ); // only this application's events reach it
  try {
    if (!(await application)) throw new NotFoundError("Application", applicationId);
    await stream.replayed;
  } catch (error) {
    await stream.return?.();
    throw error;
  }
  return stream;
}

/**
 * The `onEvent` part of the deployments module that completes the `deploymentUpdated` subscriptions of deleted
 * applications: on `application.deleted`, and on `project.deleted` for each application of the project (emitted
 * before the project's rows go), it emits the live change of status `deleted`, in the deleting transaction.
 */
export const endSubscriptionsOfDeleted: EventSubscriber = async (ctx, event) => {
  if (event.kind !== "webhook") return;
  let applicationIds: string[];
  if (event.name === "application.deleted") {
    applicationIds = [(event.data as DomainEventData<"application.deleted">).application.application_id];
  } else if (event.name === "project.deleted") {
    applicationIds = await applicationIdsOfProject(
      ctx.knex,
      (event.data as DomainEventData<"project.deleted">).project.project_id,
    );
  } else return;
  for (const id of applicationIds) {
    await events.emitLive(ctx, DEPLOYMENT_TOPIC, { id, applicationId: id, status: APPLICATION_DELETED });
  }
};

/** The deploy event of a status, if it has one. */
const EVENT_OF_STATUS: Partial<Record<DeploymentStatus, "deploy.started" | "deploy.succeeded" | "deploy.failed">> = {
  running: "deploy.started",
  done: "deploy.succeeded",
  error: "deploy.failed",
};

/**
 * Emits the webhook event of `deployment`'s current status (`running` → deploy.started, `done` →
 * deploy.succeeded, `error` → deploy.failed) in `knex`'s transaction; other statuses emit nothing. A site import's
 * deployment (trigger `import`) sends it to no webhook (spec doc 1, Events: the site import API emits none).
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
    outbound: deployment.trigger !== ("import" satisfies DeploymentTrigger),
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
