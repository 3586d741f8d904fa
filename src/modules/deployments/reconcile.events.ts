/**
 * What enqueues a reconcile (reconcile.ts): the typed events of every change of a resource the cluster carries,
 * consumed in the producer's transaction (the job commits or rolls back with the change). The producers are the
 * management mutations (applications, databases, domains, variables, environments), the projects module
 * (`project.deleted`: `deleteProject`, an import's rollback and the cleanup before an import's retry), the
 * organizations module (`org_plan_changed`: the namespace's quota follows the plan). A deployment that ran enqueues
 * one itself as it ends (deployment.run.ts).
 */
import type { DomainEventName } from "../../shared/events/catalogue.ts";
import type { EventSubscriber } from "../events.ts";
import { enqueueReconcile } from "./reconcile.ts";

/** The events after which the cluster may hold objects no row calls for, or lack a route one does. */
export const RECONCILE_EVENTS: ReadonlySet<DomainEventName> = new Set<DomainEventName>([
  "application.updated",
  "application.deleted",
  "application.variables_changed",
  "database.created",
  "database.password_rotated",
  "database.deleted",
  "domain.added",
  "domain.updated",
  "domain.removed",
  "environment.deleted",
  "project.deleted",
  "org_plan_changed",
]);

/**
 * The `onEvent` part of the deployments module that enqueues a reconcile of the event's organization. Nothing
 * under the `dry-run` deployer, which has no cluster (the periodic reconcile catches up once it has one).
 */
export const reconcileOnChange: EventSubscriber = async (ctx, event) => {
  if (event.kind !== "webhook" || !RECONCILE_EVENTS.has(event.name)) return;
  if (ctx.services.config.SKIFF_DEPLOYER !== "kubernetes") return;
  await enqueueReconcile(ctx.services, ctx.knex, event.organizationId, "change");
};
