/**
 * One delivery attempt (spec: Delivery to the receiver, States "delivery attempt", Errors):
 * POST the stored envelope bytes to the endpoint with the signature headers, through the outbound client (address
 * check before every attempt, no redirects, 10 s budget). Success = a 2xx; a `410 Gone` ends the series and
 * deactivates the endpoint at once. Every attempt is written to the delivery log, failures with their reason.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import { OutboundError } from "../../http/outbound-errors.ts";
import { retryThroughOutage } from "../../shared/database-unavailable.ts";
import { transactionRetryingConflicts } from "../../shared/transaction.ts";
import { recordSystemChange } from "../audit/index.ts";
import { enqueueMail } from "../mail/index.ts";
import { noticeRecipients } from "../organizations/index.ts";
import type { AppServices } from "../services.ts";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "./webhook.model.ts";
import {
  type AttemptOutcomeEntry,
  type DeliveryWithEndpoint,
  logAttempt,
  storableEntry,
} from "./webhook-attempt-batches.ts";
import { cancelPendingDeliveries } from "./webhook-emit.ts";
import { closeEndpoint, endpointClosed } from "./webhook-endpoint-slots.ts";
import { type SigningKeys, standardWebhookSignature, storedSecretKeys, webhookSignature } from "./webhook-signature.ts";

/** How long an attempt's outcome waits for the database to be logged, ms (then the job fails and runs again). */
const LOG_OUTAGE_WAIT_MS = 300_000;

/** Attempts in a series (spec Limits: 3 in total). */
export const MAX_ATTEMPTS = 3;
/** Waits before the 2nd and 3rd attempt, ms (spec: 1 s, then 4 s). */
export const RETRY_WAITS_MS = [1000, 4000] as const;
/** Budget of one attempt, ms (a 2xx later than this is a failure). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Characters of the receiver's answer kept in the log. */
export const LOGGED_BODY_CHARS = 500;
/** An endpoint whose deliveries all failed for this long is deactivated. */
export const DEACTIVATE_AFTER_MS = 5 * 24 * 3600 * 1000;
/** The receiver's answer that deactivates its endpoint at once (the endpoint is gone for good). */
const GONE = 410;
/** `User-Agent` of deliveries (spec: `<product>-Webhooks/1.0`). */
export const USER_AGENT = "Skiff-Webhooks/1.0";

/** Outcome of {@link attemptDelivery}. */
export type AttemptOutcome =
  /** Nothing sent: the delivery is gone, no longer pending, or its endpoint was deactivated. */
  | { kind: "skipped"; reason: string }
  | { kind: "delivered" }
  /** Failed; `final` when no attempt follows (the series ended failed). */
  | { kind: "failed"; final: boolean; message: string };

/**
 * The headers of one attempt (`secret`: the endpoint's secret or its signing keys; `timestampSeconds`: the
 * Standard Webhooks `webhook-timestamp`).
 */
export function deliveryHeaders(
  secret: string | SigningKeys,
  delivery: Pick<WebhookDeliveryRow, "id" | "event" | "body">,
  timestampSeconds: number,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "x-webhook-event": delivery.event,
    "x-webhook-delivery": delivery.id,
    "x-webhook-signature": webhookSignature(secret, delivery.body),
    "webhook-id": delivery.id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": standardWebhookSignature(secret, delivery.id, timestampSeconds, delivery.body),
  };
}

/** A delivery taken for an attempt (webhook-dispatcher.ts): the row with its endpoint, the attempt's number. */
export type ClaimedDelivery = DeliveryWithEndpoint & { attempt: number; force: boolean };

/**
 * Runs attempt number `attempt` (1–3) of delivery `deliveryId`, read on its own (the dispatcher reads its deliveries
 * in its claims and calls {@link runAttempt}): see there.
 */
export async function attemptDelivery(
  services: AppServices,
  log: Logger,
  deliveryId: string,
  attempt: number,
  force: boolean,
  signal?: AbortSignal,
): Promise<AttemptOutcome> {
  const joined = (await services
    .knex("webhook_deliveries as d")
    .join("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .where("d.id", deliveryId)
    .first(
      "d.id",
      "d.endpoint_id",
      "d.organization_id",
      "d.event",
      "d.body",
      "d.status",
      "e.url",
      "e.secret_encrypted",
      "e.is_active",
      "e.failing_since",
    )) as DeliveryWithEndpoint | undefined;
  if (!joined) return { kind: "skipped", reason: "delivery or endpoint deleted" };
  return runAttempt(services, log, { ...joined, attempt, force }, signal);
}

/**
 * Runs the attempt of `delivery`: skipped when the delivery is no longer pending or its endpoint is inactive (unless
 * `force`: the test `ping`; the delivery is then cancelled); otherwise signs with the endpoint's current secret,
 * sends, logs the attempt and moves the delivery to `delivered`, to its next attempt (1 s, then 4 s later), or to
 * `failed` after the last attempt (then the endpoint's failure streak is updated: 5 days of failures deactivate it
 * and tell the notification channels) — the lease given back in the same statement. `signal` cancels the call
 * (shutdown): the attempt is then not logged (the caller gives its delivery back to the queue). `answered` is called
 * once the receiver's call has ended (answered, failed or timed out), before the outcome is logged.
 */
export async function runAttempt(
  services: AppServices,
  log: Logger,
  delivery: ClaimedDelivery,
  signal?: AbortSignal,
  answered?: () => void,
): Promise<AttemptOutcome> {
  const { knex } = services;
  const { id: deliveryId, attempt, force } = delivery;
  const endpoint = {
    id: delivery.endpointId,
    organizationId: delivery.organizationId,
    url: delivery.url,
    secretEncrypted: delivery.secretEncrypted,
    isActive: delivery.isActive,
    failingSince: delivery.failingSince,
  };
  if (delivery.status !== "pending") return { kind: "skipped", reason: `delivery ${delivery.status}` };
  if (!endpoint.isActive && !force) {
    await knex("webhook_deliveries")
      .where({ id: deliveryId, status: "pending" })
      .update({ status: "cancelled", next_attempt_at: null, locked_until: null, locked_by: null });
    return { kind: "skipped", reason: "endpoint inactive" };
  }
  const headers = deliveryHeaders(
    storedSecretKeys(services.secrets, endpoint.secretEncrypted),
    delivery,
    Math.floor(services.now().getTime() / 1000),
  );
  const started = performance.now();
  let success = false;
  let status: number | null = null;
  let responseBody: string | null = null;
  let errorMessage: string | null = null;
  try {
    const res = await services.outbound.request({
      method: "POST",
      url: endpoint.url,
      headers,
      body: delivery.body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxBodyBytes: 4096,
      signal,
    });
    status = res.status;
    responseBody = res.body.toString("utf8").slice(0, LOGGED_BODY_CHARS);
    success = res.status >= 200 && res.status < 300;
    if (!success) errorMessage = `HTTP ${res.status}`;
  } catch (e) {
    if (signal?.aborted) throw e;
    if (!(e instanceof OutboundError)) throw e;
    errorMessage = e.message;
  } finally {
    // A `410 Gone` closes the endpoint at once: no attempt to it starts here until it is inactive.
    if (status === GONE) closeEndpoint(services, endpoint.id);
    answered?.();
  }
  const durationMs = Math.round(performance.now() - started);
  // `410 Gone`: the receiver says the endpoint is gone for good; no attempt follows and the endpoint is deactivated.
  const gone = status === GONE;
  const final = success || gone || attempt >= MAX_ATTEMPTS;
  const entry: AttemptOutcomeEntry = {
    deliveryId,
    endpointId: endpoint.id,
    event: delivery.event,
    attempt,
    success,
    responseStatus: status,
    responseBody,
    errorMessage,
    durationMs,
    retryInMs: final ? null : RETRY_WAITS_MS[attempt - 1]!,
  };
  // The attempt happened: its outcome is logged once the database answers, even if it went away meanwhile
  // (every attempt the receiver saw is in the log, once), unless the instance shuts down first.
  await retryThroughOutage(
    async () => {
      if (!final || (success && !endpoint.failingSince)) {
        // The common cases in one statement (shared with the attempts ending alongside): log, count, end on success.
        await logAttempt(services, entry);
        return;
      }
      // A deadlock with a concurrent deactivation or log write is retried: the attempt happened and is logged.
      await transactionRetryingConflicts(knex, async (trx) => {
        // The endpoint first: final outcomes of one endpoint (which may deactivate it) take their locks in turn.
        // Deleted meanwhile: the delivery went with it, and there is nothing to log.
        if (!(await trx("webhook_endpoints").where({ id: endpoint.id }).forUpdate().first("id"))) return;
        await trx("webhook_delivery_attempts").insert(storableEntry(entry));
        await trx("webhook_deliveries")
          .where({ id: deliveryId })
          .update({
            attempts: attempt,
            updated_at: trx.fn.now(),
            status: success ? "delivered" : "failed",
            next_attempt_at: null,
            locked_until: null,
            locked_by: null,
          });
        if (success) await trx("webhook_endpoints").where({ id: endpoint.id }).update({ failing_since: null });
        else await recordFailedDelivery(services, trx, log, endpoint, gone);
      });
    },
    {
      signal,
      maxWaitMs: LOG_OUTAGE_WAIT_MS,
      maxDelayMs: 5000,
      onOutage: (err, waitMs) =>
        log.warn({ err, deliveryId, attempt, waitMs }, "webhook attempt not logged yet; retrying"),
    },
  );
  if (gone) endpointClosed(services, endpoint.id);
  if (success) return { kind: "delivered" };
  return { kind: "failed", final, message: errorMessage ?? "failed" };
}

/**
 * A delivery of `endpoint` failed for good: starts or extends its failure streak; after
 * {@link DEACTIVATE_AFTER_MS} of failures, or at once when the receiver answered `410 Gone` (`gone`), the endpoint
 * is deactivated (its pending deliveries cancelled), the deactivation logged, recorded in the organization's audit
 * log (actor `SYSTEM`, in `trx`) and each notification channel mailed (the owners when there is none) — once, by the
 * outcome that turns it off.
 */
async function recordFailedDelivery(
  services: AppServices,
  trx: Knex.Transaction,
  log: Logger,
  endpoint: Pick<WebhookEndpointRow, "id" | "organizationId" | "url" | "isActive" | "failingSince">,
  gone: boolean,
): Promise<void> {
  const now = services.now();
  const since = endpoint.failingSince ?? now;
  if (!endpoint.failingSince) {
    await trx("webhook_endpoints").where({ id: endpoint.id }).update({ failing_since: now });
  }
  if (!endpoint.isActive || (!gone && now.getTime() - since.getTime() < DEACTIVATE_AFTER_MS)) return;
  // Only the outcome that turns the endpoint off logs, records and mails it (concurrent 410s deactivate it once).
  const turnedOff = await trx("webhook_endpoints")
    .where({ id: endpoint.id, is_active: true })
    .update({ is_active: false, updated_at: now });
  if (!turnedOff) return;
  await cancelPendingDeliveries(trx, services.jobs, endpoint.id);
  await recordSystemChange(trx, {
    organizationId: endpoint.organizationId,
    action: gone ? "system.webhook_endpoint_deactivated_gone" : "system.webhook_endpoint_deactivated_failing",
    targetIds: [endpoint.id],
  });
  const origin = new URL(endpoint.url).origin;
  const reason = gone
    ? `answered 410 Gone at ${now.toISOString()}`
    : `has failed every delivery since ${since.toISOString()}`;
  log.warn(
    { webhookUuid: endpoint.id, reason: gone ? "gone" : "failing" },
    gone
      ? "webhook endpoint deactivated: its receiver answered 410 Gone"
      : "webhook endpoint deactivated after 5 days of failed deliveries",
  );
  const targets = await noticeRecipients(trx, endpoint.organizationId);
  for (const to of targets) {
    await enqueueMail(services, trx, {
      to,
      subject: "Skiff: a webhook endpoint was deactivated",
      text:
        `The webhook endpoint ${endpoint.id} (${origin}) ${reason}, so it was deactivated. ` +
        "Fix the receiver, then set it active again.\n",
    });
  }
}
