/**
 * Live import status (GraphQL `siteImportUpdated`): every status change of an import is published when it commits
 * (a new run's `pending` by NOTIFY in the transaction that queues the run, so it precedes whatever the run
 * publishes; the run's changes after each of its commits) as a small event `{ id, organizationId, status,
 * projectId }` on topic `site_import.updated` (PostgreSQL NOTIFY, so every server instance sees it), and each
 * subscriber receives the events it may see — its organization, and for a member limited by grants only imports of
 * granted projects (decided from the event's project and the connection's cached access, dropped when an access
 * change is announced: no statement per subscriber). Fan-out: the instance's dispatch, routed by
 * organization or import id, hands an event only to the matching subscribers; the event object is shared, so
 * subscribers with the same operation share one result (src/server/shared-execution.ts) and identical reads of the
 * record run once (src/reads/resolvers.ts). The SQL statements per event do not grow with the number of
 * subscribers. A deletion is published as status `deleted` (with the record's project) and delivered with a null
 * record.
 */

import type { Knex } from "knex";
import { can } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { cursorOf, seqOfCursor } from "../../shared/event-log.ts";
import { type EventMeta, eventStream, oncePerEvent, shareableEvent } from "../../shared/pubsub.ts";
import type { Context, ServiceContext } from "../context.ts";
import { events } from "../events.ts";
import { type ImportStatus, SiteImport } from "./site-import.model.ts";

/** Pub/sub topic of import status changes: the live event's name (the manifest relays it: `liveRelay`). */
export const SITE_IMPORT_TOPIC = "site_import.updated";

/** A status an event reports: the record's, or `deleted` once the record is gone. */
export type SiteImportUpdateStatus = ImportStatus | "deleted";

/**
 * Payload of one status change (what travels through NOTIFY), with the record's project at that moment for the
 * grant check (absent in events of older instances: the record is then read for it).
 */
export interface SiteImportChange {
  id: string;
  organizationId: string;
  status: SiteImportUpdateStatus;
  projectId?: string | null;
}

/**
 * What a subscriber receives: the status this event reports, and the record to read as it is now (by id, with the
 * subscriber's selection: src/reads/resolvers.ts; null once deleted).
 */
export interface SiteImportEvent {
  importId: string;
  status: SiteImportUpdateStatus;
  record: { id: string } | null;
  /** The event's position in the live-event log (src/shared/event-log.ts). */
  cursor: string;
}

/**
 * Publishes `record`'s current status: after commit, or with `transaction` inside it (delivered when it commits, so
 * ordered before anything a job queued in the same transaction publishes). Failures are logged, never thrown:
 * events are best effort.
 */
export async function publishSiteImportChange(
  ctx: Pick<ServiceContext, "services" | "log">,
  record: Pick<SiteImport, "id" | "organizationId" | "status" | "projectId">,
  transaction?: Knex,
): Promise<void> {
  const change: SiteImportChange = {
    id: record.id,
    organizationId: record.organizationId,
    status: record.status,
    projectId: record.projectId,
  };
  await emitChange(ctx, change, transaction);
}

/**
 * Publishes the deletion of `record` as status `deleted` (call after commit). Best effort, like
 * {@link publishSiteImportChange}.
 */
export async function publishSiteImportDeleted(
  ctx: Pick<ServiceContext, "services" | "log">,
  record: Pick<SiteImport, "id" | "organizationId" | "projectId">,
): Promise<void> {
  const change: SiteImportChange = {
    id: record.id,
    organizationId: record.organizationId,
    status: "deleted",
    projectId: record.projectId,
  };
  await emitChange(ctx, change);
}

/** Emits `change` as the live event `site_import.updated`: in `transaction`, else at once on the pool. */
async function emitChange(
  ctx: Pick<ServiceContext, "services" | "log">,
  change: SiteImportChange,
  transaction?: Knex,
): Promise<void> {
  const knex = transaction ?? ctx.services.knex;
  await events.emitLive({ knex, services: ctx.services, log: ctx.log }, SITE_IMPORT_TOPIC, change);
}

function isChange(payload: Record<string, unknown>): payload is Record<string, unknown> & SiteImportChange {
  return (
    typeof payload.id === "string" && typeof payload.organizationId === "string" && typeof payload.status === "string"
  );
}

/**
 * What an event's subscribers receive, built once per event and instance: one object shared by every subscriber
 * that may see it (`shareableEvent`), whose record is read by id with each subscriber's selection.
 */
const eventOf = oncePerEvent<SiteImportEvent>();

/**
 * Whether a subscriber with standing `access` (same organization) receives the event of an import of project
 * `projectId`: the access policy's "project:see" (the rule of the records' SQL visibility, site-import.tables.ts
 * `visibleImportRow`; an import without a project is seen by unrestricted members only) on the
 * connection's cached standing, because an event reaches every subscriber of an organization and a statement per
 * subscriber and event would not scale (test/site-imports/subscription-fanout.test.ts), and a deleted record has no
 * row left to read.
 */
function eventVisible(access: OrgAccess, projectId: string | null): boolean {
  return projectId === null ? !access.grants : can(access, "project:see", { projectId });
}

/**
 * The event stream of one import (`id`), or of every import of the caller's active organization (`id` null).
 * Listening starts before the visibility check, so no change after the subscription is accepted is missed. With
 * `after` (a cursor), the logged events after it go first, through the same visibility check as live ones.
 * @throws NotFoundError when `id` is not visible to the caller, or when the caller has no active organization;
 *   BadUserInputError for an `after` that is malformed or beyond the newest event of the log, CursorExpiredError
 *   for one older than the log's retention.
 */
export async function siteImportUpdates(
  ctx: Context,
  id: string | null,
  after: string | null = null,
): Promise<AsyncIterableIterator<SiteImportEvent>> {
  const afterSeq = after === null ? undefined : seqOfCursor(after);
  const organizationId = ctx.caller?.organizationId ?? null;
  // Routed by import or organization: the instance's dispatch hands this stream only the events it filters on.
  const route = id ? { field: "id", value: id } : { field: "organizationId", value: organizationId ?? "" };
  /** The event for this subscriber when standing `access` may see it (of the import's project `projectId`). */
  const visibleEvent = (
    payload: SiteImportChange,
    meta: EventMeta,
    access: OrgAccess | null,
    projectId: string | null,
  ): SiteImportEvent | undefined => {
    if (!access || !eventVisible(access, projectId)) return undefined;
    // One object per event, shared by its subscribers: their identical reads of the record run once.
    const event = eventOf(payload as unknown as Record<string, unknown>, () =>
      shareableEvent({
        importId: payload.id,
        status: payload.status,
        record: payload.status === "deleted" ? null : { id: payload.id },
        cursor: cursorOf(meta.seq ?? 0),
      }),
    );
    if (payload.status !== "deleted") ctx.forEvent(); // fresh loaders for this event's nested fields
    return event;
  };
  /**
   * Whether this subscriber receives the event, and as what. Decided synchronously from the connection's cached
   * access (ctx.scope) when it is loaded — no statement and no promise per subscriber and event — else once it is.
   */
  const accept = (
    payload: Record<string, unknown>,
    meta: EventMeta,
  ): SiteImportEvent | undefined | Promise<SiteImportEvent | undefined> => {
    if (!isChange(payload)) return undefined;
    if (id ? payload.id !== id : payload.organizationId !== organizationId) return undefined;
    const known = payload.projectId;
    if (known === undefined && payload.status !== "deleted") {
      // An event of an older instance: the record tells its project.
      return SiteImport.query(ctx.knex)
        .findById(payload.id)
        .then(async (record) => {
          if (!record) return undefined; // deleted meanwhile
          const access = await ctx.scope.forOrg(payload.organizationId);
          return visibleEvent(payload, meta, access, record.projectId ?? null);
        });
    }
    // A deleted record has no row left: visibility from the organization and the project it had.
    const projectId = typeof known === "string" ? known : null;
    const access = ctx.scope.settledForOrg(payload.organizationId);
    if (access !== undefined) return visibleEvent(payload, meta, access, projectId);
    return ctx.scope.forOrg(payload.organizationId).then((loaded) => visibleEvent(payload, meta, loaded, projectId));
  };
  const stream = eventStream<SiteImportEvent>(ctx.services.pubsub, SITE_IMPORT_TOPIC, accept, {
    route,
    after: afterSeq,
  });
  try {
    if (id) {
      if (!(await ctx.loaders.siteImports.byId.load(id))) throw new NotFoundError("Site import", id);
    } else if (!organizationId || !(await ctx.scope.forOrg(organizationId))) {
      throw new NotFoundError("Organization", organizationId ?? "(none)");
    }
    await stream.replayed;
  } catch (error) {
    await stream.return?.();
    throw error;
  }
  return stream;
}
