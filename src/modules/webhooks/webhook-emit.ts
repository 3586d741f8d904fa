/**
 * Events happen: writing an event's deliveries (spec: Delivery envelope; Learning platform webhook events). For every
 * active endpoint of the organization subscribed to the event, one `webhook_deliveries` row holds the envelope
 * `{ event, delivery_id, timestamp, org_id, data }` serialised once (compact JSON), and one `webhooks.deliver`
 * job is enqueued for its first attempt (all of them in one statement) — both in the caller's transaction, so an action that rolls back sends
 * nothing.
 */
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { organizationNumbers } from "../organizations/index.ts";
import type { AppServices } from "../services.ts";
import { WEBHOOK_GATE } from "./webhook-access.ts";

/** What emitting needs: the database (pool or the caller's transaction) and the instance's services. */
export interface EmitContext {
  knex: Knex;
  services: AppServices;
  log?: Logger;
}

/** One delivery created by an emission. */
export interface CreatedDelivery {
  webhookUuid: string;
  deliveryId: string;
}

/** Options of {@link emitWebhookEvent}. */
export interface EmitOptions {
  /** Only this endpoint, whatever its subscriptions and state (the `test` operation's `ping`). */
  endpointId?: string;
}

/** Name of the job that makes one delivery attempt (webhook.jobs.ts). */
export const DELIVER_JOB = "webhooks.deliver";

/** A new delivery id: `dlv_` + 16 lowercase hex digits. */
export function newDeliveryId(): string {
  return `dlv_${randomBytes(8).toString("hex")}`;
}

/** The job key of a delivery's pending attempt (one at a time; removing it cancels the series). */
export function deliveryJobKey(deliveryId: string): string {
  return `webhook:${deliveryId}`;
}

/**
 * Writes the deliveries of `event` with `data` for organization `organizationId` (TypeID) and enqueues their
 * first attempts, in `ctx.knex`'s transaction (a new one when it is the pool). `data` must already be valid for
 * the event (see webhook-events.catalogue.ts).
 * @returns the deliveries created (empty when no active endpoint subscribes to the event, or the organization's plan
 *   has no webhooks).
 */
export async function emitWebhookEvent(
  ctx: EmitContext,
  organizationId: string,
  event: string,
  data: Record<string, unknown>,
  options: EmitOptions = {},
): Promise<CreatedDelivery[]> {
  return withTransaction(ctx, async (tx) => {
    // The endpoints with their organization's integer id (the envelope's `org_id`), in one statement; none when
    // the organization's plan lacks webhooks (spec: "Webhooks require the Pro plan": after a downgrade the endpoints
    // stay, receive nothing, and deliver again after an upgrade). Their rows are locked as the deliveries' foreign
    // keys would lock them: an endpoint deleted by a transaction that commits meanwhile is skipped here, not a
    // foreign key violation failing the action that emits the event.
    const endpoints = (await tx
      .knex("webhook_endpoints as e")
      .join(organizationNumbers(tx.knex, "o", WEBHOOK_GATE.planFeature.feature), "o.id", "e.organization_id")
      .where("e.organization_id", organizationId)
      .modify((q) => {
        if (options.endpointId) q.where("e.id", options.endpointId);
        else q.where("e.is_active", true).whereRaw("? = any(e.events)", [event]);
      })
      .select("e.id", "o.database_id")
      .forKeyShare("e")) as Array<{ id: string; databaseId: number }>;
    if (endpoints.length === 0) return [];
    const orgNumber = endpoints[0]!.databaseId;
    const timestamp = ctx.services.now().toISOString();
    const rows = endpoints.map((e) => {
      const deliveryId = newDeliveryId();
      const body = JSON.stringify({ event, delivery_id: deliveryId, timestamp, org_id: orgNumber, data });
      return { id: deliveryId, endpoint_id: e.id, organization_id: organizationId, event, body };
    });
    await tx.knex("webhook_deliveries").insert(rows);
    await ctx.services.jobs.enqueueMany(
      tx.knex,
      DELIVER_JOB,
      rows.map((row) => ({
        payload: { deliveryId: row.id, force: options.endpointId !== undefined },
        options: { jobKey: deliveryJobKey(row.id) },
      })),
    );
    return rows.map((r) => ({ webhookUuid: r.endpoint_id, deliveryId: r.id }));
  });
}

/**
 * Cancels the pending attempts of `endpointId` (deactivated or about to be deleted): their deliveries become
 * `cancelled` and their queued jobs are removed. A job already running finishes its attempt.
 */
export async function cancelPendingDeliveries(knex: Knex, jobs: JobQueue, endpointId: string): Promise<number> {
  // Rows locked in id order (cancellations of one endpoint meet in the same order); a batched log write that
  // deadlocks with it is retried entry by entry (webhook-attempt-batches.ts).
  const { rows: pending } = (await knex.raw(
    `update webhook_deliveries d set status = 'cancelled', updated_at = now()
     from (select id from webhook_deliveries where endpoint_id = ? and status = 'pending' order by id for update) p
     where d.id = p.id returning d.id`,
    [endpointId],
  )) as { rows: Array<{ id: string }> };
  await jobs.remove(
    knex,
    pending.map(({ id }) => deliveryJobKey(id)),
  );
  return pending.length;
}
