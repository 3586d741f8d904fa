/**
 * Live import status (GraphQL `siteImportUpdated`): every status change of an import is published after its
 * commit as a small event `{ id, organizationId, status }` on topic `siteImport` (PostgreSQL NOTIFY, so every
 * server instance sees it), and each subscriber receives the events it may see — its organization, and for a
 * member limited by grants only imports of granted projects — with the record loaded fresh per event. A deletion
 * is published as status `deleted` (with the record's project, so grant-limited members are still filtered) and
 * delivered with a null record.
 */

import { NotFoundError } from "../../shared/errors.ts";
import { eventStream } from "../../shared/pubsub.ts";
import type { Context, ServiceContext } from "../context.ts";
import { canSeeImport } from "./site-import.loaders.ts";
import type { ImportStatus, SiteImport } from "./site-import.model.ts";

/** Pub/sub topic of import status changes. */
export const SITE_IMPORT_TOPIC = "siteImport";

/** A status an event reports: the record's, or `deleted` once the record is gone. */
export type SiteImportUpdateStatus = ImportStatus | "deleted";

/** Payload of one status change (what travels through NOTIFY). `projectId` only on `deleted` (visibility check). */
export interface SiteImportChange {
  id: string;
  organizationId: string;
  status: SiteImportUpdateStatus;
  projectId?: string | null;
}

/** What a subscriber receives: the status this event reports, and the record as it is now (null once deleted). */
export interface SiteImportEvent {
  importId: string;
  status: SiteImportUpdateStatus;
  record: SiteImport | null;
}

/** Publishes `record`'s current status (call after commit). Failures are logged, never thrown: events are best effort. */
export async function publishSiteImportChange(
  ctx: Pick<ServiceContext, "services" | "log">,
  record: Pick<SiteImport, "id" | "organizationId" | "status">,
): Promise<void> {
  const change: SiteImportChange = { id: record.id, organizationId: record.organizationId, status: record.status };
  try {
    await ctx.services.pubsub.publish(SITE_IMPORT_TOPIC, { ...change });
  } catch (err) {
    ctx.log.warn({ err, importId: record.id }, "could not publish site import status");
  }
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
  try {
    await ctx.services.pubsub.publish(SITE_IMPORT_TOPIC, { ...change });
  } catch (err) {
    ctx.log.warn({ err, importId: record.id }, "could not publish site import deletion");
  }
}

function isChange(payload: Record<string, unknown>): payload is Record<string, unknown> & SiteImportChange {
  return (
    typeof payload.id === "string" && typeof payload.organizationId === "string" && typeof payload.status === "string"
  );
}

/**
 * The event stream of one import (`id`), or of every import of the caller's active organization (`id` null).
 * Listening starts before the visibility check, so no change after the subscription is accepted is missed.
 * @throws NotFoundError when `id` is not visible to the caller, or when the caller has no active organization.
 */
export async function siteImportUpdates(
  ctx: Context,
  id: string | null,
): Promise<AsyncIterableIterator<SiteImportEvent>> {
  const organizationId = ctx.principal?.organizationId ?? null;
  const stream = eventStream<SiteImportEvent>(ctx.services.pubsub, SITE_IMPORT_TOPIC, async (payload) => {
    if (!isChange(payload)) return undefined;
    if (id ? payload.id !== id : payload.organizationId !== organizationId) return undefined;
    if (payload.status === "deleted") {
      // The record is gone: check visibility against the organization and the project it had.
      const access = await ctx.forEvent().scope.forOrg(payload.organizationId);
      const projectId = typeof payload.projectId === "string" ? payload.projectId : null;
      if (!access || !canSeeImport(access, { projectId })) return undefined;
      return { importId: payload.id, status: "deleted", record: null };
    }
    const record = await ctx.forEvent().loaders.siteImports.byId.load(payload.id);
    if (!record) return undefined; // deleted meanwhile, or not visible to this caller
    return { importId: payload.id, status: payload.status, record };
  });
  try {
    if (id) {
      if (!(await ctx.loaders.siteImports.byId.load(id))) throw new NotFoundError("Site import", id);
    } else if (!organizationId || !(await ctx.scope.forOrg(organizationId))) {
      throw new NotFoundError("Organization", organizationId ?? "(none)");
    }
  } catch (error) {
    await stream.return?.();
    throw error;
  }
  return stream;
}
