/**
 * The shapes of the resource events the management mutations emit (catalogue: src/shared/events/catalogue.ts,
 * category `Resources`), and the `needs_deployment` mark every change of what a deployment carries sets.
 */
import type { Knex } from "knex";
import type { ServiceContext } from "../context.ts";
import type { Application } from "./application.model.ts";

/** An application as events carry it. */
export function applicationRef(app: Pick<Application, "id" | "name" | "projectId">) {
  return { application_id: app.id, name: app.name, project_id: app.projectId };
}

/** Who made a change (the caller's user id), as events carry it. */
export function changedBy(ctx: ServiceContext): { changed_by?: string } {
  return ctx.caller ? { changed_by: ctx.caller.userId } : {};
}

/** Marks applications `ids` as needing a deployment (their running version lacks a change). */
export async function markNeedsDeployment(db: Knex | Knex.Transaction, ids: readonly string[]): Promise<void> {
  if (ids.length) await db("applications").whereIn("id", ids).update({ needs_deployment: true });
}
