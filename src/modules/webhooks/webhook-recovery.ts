/**
 * Recovery after downtime (docs/webhooks.md "Recovering after downtime"): every delivery of one endpoint created in
 * a time window that did not end delivered (`failed` or `cancelled`) is sent again as a new series of 3 attempts,
 * same `delivery_id`, same stored bytes (as a single redelivery). The first attempts are spread at
 * `SKIFF_WEBHOOK_RECOVER_RATE` per second (the receiver that just came back is not flooded): they are queued again
 * in the recovery's transaction, in one statement, each due at its turn (`next_attempt_at`). Asking again for the same window while that recovery runs (one of its
 * deliveries is still pending) answers the running recovery and queues nothing.
 */
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { BadUserInputError } from "../../shared/errors.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { noteAuditTarget } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import { consumeRateLimit, endpointOf, refuseInactive } from "./webhook.service.ts";
import { webhookOrganization } from "./webhook-access.ts";
import { announceDue } from "./webhook-emit.ts";

/** A recovery as `recoverWebhookDeliveries` answers it. */
export interface WebhookRecovery {
  /** `whrec_` + UUID. */
  recoveryId: string;
  webhookUuid: string;
  since: Date;
  until: Date;
  /** Deliveries queued again by this recovery. */
  queued: number;
  /** First attempts per second. */
  ratePerSecond: number;
  /** True when the same window's recovery was still running: this call queued nothing. */
  alreadyRunning: boolean;
  createdAt: Date;
}

/** A `webhook_recoveries` row. */
interface RecoveryRow {
  id: string;
  endpointId: string;
  since: Date;
  until: Date;
  queued: number;
  ratePerSecond: number;
  createdAt: Date;
}

/** The window of a recovery: `since` inclusive, `until` exclusive (default: now). */
export interface RecoveryWindow {
  since: Date | string;
  until?: Date | string | null;
}

/** `value` as a Date. @throws BadUserInputError on `field` when it is not a date. */
function dateOf(field: string, value: Date | string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new BadUserInputError(`Invalid input: ${field}: not a date-time`, {
      fieldErrors: { [field]: ["Must be an RFC 3339 date-time"] },
    });
  }
  return date;
}

/**
 * `POST …/webhooks/{uuid}/recover` and `recoverWebhookDeliveries`: queues again every `failed` or `cancelled`
 * delivery of the endpoint created in [`since`, `until`) (see the file comment), and records and logs the recovery.
 * @returns the recovery (a running one of the same window, `alreadyRunning`, when there is one).
 * @throws BadUserInputError (`since` not before `until`, `until` in the future, endpoint inactive), RateLimitedError
 *   (20 recoveries per hour per organization), NotFoundError (unknown endpoint or another organization's), and the
 *   gate's errors.
 */
export async function recoverWebhookDeliveries(
  ctx: ServiceContext,
  orgRef: string,
  webhookUuid: string,
  window: RecoveryWindow,
): Promise<WebhookRecovery> {
  const org = await webhookOrganization(ctx, orgRef);
  const endpoint = await endpointOf(ctx, org, webhookUuid);
  const now = ctx.services.now();
  const since = dateOf("since", window.since);
  const untilGiven = window.until !== undefined && window.until !== null;
  const until = untilGiven ? dateOf("until", window.until as Date | string) : now;
  if (until.getTime() > now.getTime()) {
    throw new BadUserInputError("Invalid input: until: in the future", {
      fieldErrors: { until: ["Must not be in the future"] },
    });
  }
  if (since.getTime() >= until.getTime()) {
    throw new BadUserInputError("Invalid input: since: must be before until", {
      fieldErrors: { since: ["Must be before until (default: now)"] },
    });
  }
  refuseInactive(endpoint, "recovering its deliveries");
  const rate = ctx.services.config.SKIFF_WEBHOOK_RECOVER_RATE;
  /** The recovery of the same window still running, if any. */
  const runningRecovery = (knex: Knex) =>
    knex("webhook_recoveries as r")
      .where({ "r.endpoint_id": webhookUuid, "r.since": since })
      // No `until`: one asked without it. An `until`: the same end, given or the time it was asked (as answered).
      .modify((q) => {
        if (untilGiven) q.where("r.until", until);
        else q.where("r.until_given", false);
      })
      .whereExists((q) =>
        q.select(knex.raw("1")).from("webhook_deliveries as d").whereRaw("d.recovery_id = r.id").where({
          "d.status": "pending",
        }),
      )
      .orderBy("r.created_at", "desc")
      .first("r.*") as Promise<RecoveryRow | undefined>;
  const asked = await runningRecovery(ctx.knex);
  if (asked) return { ...answerOf(asked), alreadyRunning: true };
  // Counted before the transaction: the limiter writes on a connection of its own, which a transaction holding one
  // must not wait for.
  await consumeRateLimit(ctx, "recover", org.organizationId);
  return withTransaction(ctx, async (tx) => {
    // Serialises recoveries of one endpoint, so two equal calls at once queue once.
    await tx.knex("webhook_endpoints").where({ id: webhookUuid }).forUpdate().first("id");
    const running = await runningRecovery(tx.knex);
    if (running) return { ...answerOf(running), alreadyRunning: true };
    const recoveryId = `whrec_${randomUUID()}`;
    // The answer's `recoveryId` is not an `id`: the call's audit entry is told.
    noteAuditTarget(tx, recoveryId);
    const [recovery] = (await tx
      .knex("webhook_recoveries")
      .insert({
        id: recoveryId,
        endpoint_id: webhookUuid,
        organization_id: org.organizationId,
        since,
        until,
        until_given: untilGiven,
        queued: 0,
        rate_per_second: rate,
        created_by_user_id: ctx.caller?.userId ?? null,
      })
      .returning("*")) as RecoveryRow[];
    // Oldest first, the i-th (from 0) due i / rate seconds from now.
    const { rows } = (await tx.knex.raw(
      `with picked as (
         select id, created_at from webhook_deliveries
         where endpoint_id = ? and created_at >= ? and created_at < ? and status in ('failed', 'cancelled')
         for update
       ), turns as (
         select id, row_number() over (order by created_at, id) - 1 as turn from picked
       )
       update webhook_deliveries d
       set status = 'pending', attempts = 0, recovery_id = ?, updated_at = now(), force = false,
         locked_until = null, locked_by = null,
         next_attempt_at = ?::timestamptz + floor(turns.turn * 1000 / ?) * interval '1 millisecond'
       from turns where d.id = turns.id
       returning d.id`,
      [webhookUuid, since, until, recoveryId, now, rate],
    )) as { rows: Array<{ id: string }> };
    if (rows.length > 0) await announceDue(tx.knex);
    await tx.knex("webhook_recoveries").where({ id: recoveryId }).update({ queued: rows.length });
    ctx.log.info(
      { webhookUuid, recoveryId, since: since.toISOString(), until: until.toISOString(), queued: rows.length, rate },
      "webhook deliveries recovered",
    );
    return { ...answerOf({ ...recovery!, queued: rows.length }), alreadyRunning: false };
  });
}

/** The answer fields of `row`. */
function answerOf(row: RecoveryRow): Omit<WebhookRecovery, "alreadyRunning"> {
  return {
    recoveryId: row.id,
    webhookUuid: row.endpointId,
    since: row.since,
    until: row.until,
    queued: row.queued,
    ratePerSecond: row.ratePerSecond,
    createdAt: row.createdAt,
  };
}
