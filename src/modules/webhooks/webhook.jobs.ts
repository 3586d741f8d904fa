/**
 * Jobs of the webhooks module: `webhooks.deliver` runs ONE attempt of a delivery (retries are new jobs, 1 s then
 * 4 s after a failure: the kernel's `waits` policy; the attempt number travels in the job; an attempt whose endpoint
 * has its share of attempts in flight is parked until a slot frees, not counted: webhook-endpoint-slots.ts) and
 * `webhooks.prune` keeps the newest 200 log entries per endpoint (every 10 minutes).
 */
import { z } from "zod";
import { DeferJobError, defineJob } from "../../jobs/job-definition.ts";
import { attemptDelivery, RETRY_WAITS_MS } from "./webhook-attempt.ts";
import { DELIVER_JOB } from "./webhook-emit.ts";

/** Log entries kept per endpoint. */
export const ATTEMPTS_KEPT = 200;

/** Thrown to make the runner schedule the next attempt. */
class AttemptFailed extends Error {
  override name = "AttemptFailed";
}

/** `webhooks.deliver {deliveryId, force}`: one attempt; a non-final failure throws so the next one is queued. */
export const deliverWebhookJob = defineJob({
  name: DELIVER_JOB,
  payload: z.object({ deliveryId: z.string().regex(/^dlv_[0-9a-f]{16}$/), force: z.boolean().default(false) }),
  retry: { kind: "waits", waitsMs: RETRY_WAITS_MS },
  async handler({ deliveryId, force }, ctx) {
    const { services, log, attempt, signal } = ctx;
    const outcome = await attemptDelivery(services, log, deliveryId, attempt, force, signal);
    // Not an attempt: it waits in the queue, holding no worker, until a slot of its endpoint frees.
    if (outcome.kind === "busy") throw new DeferJobError("endpoint busy", outcome.retryInMs, outcome.parked);
    if (outcome.kind === "skipped") ctx.log.debug({ deliveryId, reason: outcome.reason }, "webhook delivery skipped");
    if (outcome.kind === "failed" && !outcome.final) throw new AttemptFailed(outcome.message);
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
