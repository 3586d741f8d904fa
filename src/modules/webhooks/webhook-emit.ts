/**
 * Events happen: writing an event's deliveries (spec: Delivery envelope; Learning platform webhook events). For every
 * active endpoint of the organization subscribed to the event, one `webhook_deliveries` row holds the envelope
 * `{ event, delivery_id, timestamp, org_id, data }` serialised once (compact JSON), due at once in the deliveries'
 * own queue (webhook-dispatcher.ts), all of them in one statement with the NOTIFY that wakes the instances'
 * dispatchers — in the caller's transaction, so an action that rolls back sends nothing (and the NOTIFY goes out at
 * commit).
 */
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { EVENTS_CHANNEL } from "../../shared/pubsub.ts";
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

/**
 * Name of the job that made one delivery attempt in the previous release; now it hands its delivery over to the
 * deliveries' queue (webhook.jobs.ts), so jobs queued by that release are honoured during a rolling update.
 */
export const DELIVER_JOB = "webhooks.deliver";

/** The PubSub topic that wakes the dispatchers: deliveries became due (sent unlogged: a poll backs it up). */
export const DUE_TOPIC = "webhooks.due";

/** The NOTIFY text of {@link DUE_TOPIC} on PubSub's channel (an event without `seq`: never replayed). */
const DUE_NOTICE = JSON.stringify({ topic: DUE_TOPIC, payload: {} });

/**
 * Tells every instance's dispatcher that deliveries are due, in `knex`'s transaction (at its commit) or at once.
 */
export async function announceDue(knex: Knex): Promise<void> {
  await knex.raw("select pg_notify(?, ?)", [EVENTS_CHANNEL, DUE_NOTICE]);
}

/** A new delivery id: `dlv_` + 16 lowercase hex digits. */
export function newDeliveryId(): string {
  return `dlv_${randomBytes(8).toString("hex")}`;
}

/** The job key of a delivery's pending attempt in the previous release (removing it cancels that series). */
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
    const endpoints = (await subscribedEndpoints(tx.knex, organizationId, event, options.endpointId)) as Array<{
      id: string;
      databaseId: number;
    }>;
    if (endpoints.length === 0) return [];
    const orgNumber = endpoints[0]!.databaseId;
    const timestamp = ctx.services.now().toISOString();
    const force = options.endpointId !== undefined;
    const rows = endpoints.map((e) => {
      const deliveryId = newDeliveryId();
      const body = JSON.stringify({ event, delivery_id: deliveryId, timestamp, org_id: orgNumber, data });
      return { id: deliveryId, endpoint_id: e.id, organization_id: organizationId, event, body };
    });
    // The rows, due now, and the dispatchers' wake-up (sent at commit), in one statement.
    await deliveriesInsert(tx.knex, rows, force);
    return rows.map((r) => ({ webhookUuid: r.endpoint_id, deliveryId: r.id }));
  });
}

/**
 * The endpoints an event of `organizationId` goes to, with the organization's integer id (`databaseId`): its active
 * endpoints subscribed to `event`, or only `endpointId` (whatever its state); none when the organization's plan lacks
 * webhooks. Their rows are locked `for key share`. A named prepared statement (one per shape).
 */
export function subscribedEndpoints(
  knex: Knex,
  organizationId: string,
  event: string,
  endpointId?: string,
): Knex.QueryBuilder {
  return knex("webhook_endpoints as e")
    .join(organizationNumbers(knex, "o", WEBHOOK_GATE.planFeature.feature), "o.id", "e.organization_id")
    .where("e.organization_id", organizationId)
    .modify((q) => {
      if (endpointId) q.where("e.id", endpointId);
      else q.where("e.is_active", true).whereRaw("? = any(e.events)", [event]);
    })
    .select("e.id", "o.database_id")
    .forKeyShare("e")
    .options({ name: endpointId ? "skiff_webhook_emit_endpoint" : "skiff_webhook_emit_endpoints" });
}

/**
 * Inserts `rows` (deliveries due now; `force`: the `ping`'s) and sends the dispatchers' wake-up (at commit), in one
 * named prepared statement.
 */
function deliveriesInsert(
  knex: Knex,
  rows: ReadonlyArray<Record<"id" | "endpoint_id" | "organization_id" | "event" | "body", string>>,
  force: boolean,
): Knex.Raw {
  return knex
    .raw(
      `with inserted as (
         insert into webhook_deliveries (id, endpoint_id, organization_id, event, body, next_attempt_at, force)
         select id, endpoint_id, organization_id, event, body, now(), ? from unnest(?::text[], ?::text[], ?::text[],
           ?::text[], ?::text[]) as t(id, endpoint_id, organization_id, event, body)
         returning 1
       ) select pg_notify(?, ?) where exists (select 1 from inserted)`,
      [
        force,
        ...(["id", "endpoint_id", "organization_id", "event", "body"] as const).map(
          (column) => rows.map((row) => row[column]) as unknown as Knex.Value,
        ),
        EVENTS_CHANNEL,
        DUE_NOTICE,
      ],
    )
    .options({ name: "skiff_webhook_emit_deliveries" });
}

/**
 * Cancels the pending attempts of `endpointId` (deactivated or about to be deleted): their deliveries become
 * `cancelled` and leave the queue (and jobs of the previous release's deliveries are removed). An attempt already
 * in flight finishes and is logged; no other follows.
 */
export async function cancelPendingDeliveries(knex: Knex, jobs: JobQueue, endpointId: string): Promise<number> {
  // Rows locked in id order (cancellations of one endpoint meet in the same order); a batched log write that
  // deadlocks with it is retried entry by entry (webhook-attempt-batches.ts).
  const { rows: pending } = (await knex.raw(
    `update webhook_deliveries d set status = 'cancelled', updated_at = now(), next_attempt_at = null
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
