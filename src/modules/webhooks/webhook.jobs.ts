/**
 * Jobs of the webhooks module: `webhooks.prune` keeps the newest 200 log entries per endpoint (every 10 minutes).
 * Attempts run from the deliveries' own queue (webhook-dispatcher.ts); `webhooks.deliver` is the previous release's
 * job of one attempt: one queued by it (during a rolling update, or left from before the update) hands its delivery
 * over to the queue, due at once with the attempt number it carried.
 */
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { announceDue, DELIVER_JOB } from "./webhook-emit.ts";

/** Log entries kept per endpoint. */
export const ATTEMPTS_KEPT = 200;

/**
 * `webhooks.deliver {deliveryId, force}` of the previous release: its pending delivery (not yet in the queue) becomes
 * due now in the queue, with the attempts made so far (`attempt` − 1), and the dispatchers are woken.
 */
export const deliverWebhookJob = defineJob({
  name: DELIVER_JOB,
  payload: z.object({ deliveryId: z.string().regex(/^dlv_[0-9a-f]{16}$/), force: z.boolean().default(false) }),
  retry: { kind: "none" },
  async handler({ deliveryId, force }, ctx) {
    const knex = ctx.services.knex;
    const moved = await knex("webhook_deliveries")
      .where({ id: deliveryId, status: "pending" })
      .whereNull("next_attempt_at")
      .update({ next_attempt_at: knex.fn.now(), force, attempts: Math.max(0, ctx.attempt - 1) });
    if (moved) await announceDue(knex);
  },
});

/** `webhooks.prune`: deletes log entries beyond the newest {@link ATTEMPTS_KEPT} of each endpoint. */
export const pruneWebhookAttemptsJob = defineJob({
  name: "webhooks.prune",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "*/10 * * * *" },
  async handler(_payload, ctx) {
    const deleted = await pruneWebhookAttempts(ctx.services.knex);
    if (deleted) ctx.log.info({ deleted }, "webhook delivery log pruned");
  },
});

/** Deletes log entries beyond the newest {@link ATTEMPTS_KEPT} per endpoint. @returns how many were deleted. */
export async function pruneWebhookAttempts(knex: import("knex").Knex): Promise<number> {
  const { rowCount } = await knex.raw(
    `delete from webhook_delivery_attempts a using (
       select id from (
         select id, row_number() over (partition by endpoint_id order by id desc) as n from webhook_delivery_attempts
       ) ranked where n > ?
     ) old where a.id = old.id`,
    [ATTEMPTS_KEPT],
  );
  return rowCount ?? 0;
}
