/**
 * Webhook management (spec: Endpoints → Webhook management): endpoints, secret rotation, test ping,
 * delivery log, event ingestion and redelivery. Resolvers and REST rows call these; every function starts with
 * {@link webhookOrganization} (404 for non-members and members, 403 without the `webhooks` plan feature).
 */
import { randomUUID } from "node:crypto";
import { OutboundBlockedError, OutboundError, OutboundInvalidUrlError } from "../../http/outbound-errors.ts";
import { BadUserInputError, echoed, NotFoundError, RateLimitedError } from "../../shared/errors.ts";
import { type WebhookEventType, webhookEvent, webhookEventTypes } from "../../shared/events/catalogue.ts";
import { outsideExecutionTime } from "../../shared/execution-waits.ts";
import { consumeRateLimit as countCall } from "../../shared/rate-limit.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput, toBadUserInput } from "../../shared/validate.ts";
import { noteAuditTarget, writeWithAuditEntry } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import { type CreateWebhookInput, createInput, type UpdateWebhookInput, updateInput } from "./webhook.input.ts";
import type { WebhookAttemptRow, WebhookEndpointRow, WebhookWithSecret } from "./webhook.model.ts";
import { type WebhookOrganization, webhookOrganization } from "./webhook-access.ts";
import { ATTEMPT_TIMEOUT_MS } from "./webhook-attempt.ts";
import {
  announceDue,
  type CreatedDelivery,
  cancelPendingDeliveries,
  deliveryJobKey,
  emitWebhookEvent,
} from "./webhook-emit.ts";
import { generateWebhookSecret } from "./webhook-signature.ts";

/** Creates, tests and recoveries allowed per organization per hour (each kind counted apart). */
export const RATE_LIMIT_PER_HOUR = 20;
/** Default and bounds of the delivery log's `limit`. */
export const DELIVERIES_LIMIT = { default: 50, min: 1, max: 200 } as const;
/** Message of the test `ping`. */
export const PING_MESSAGE = "Hello from Skiff: this is a test delivery";

/**
 * Counts one `kind` call for `organizationId` (20 per hour).
 * @throws RateLimitedError with the seconds until the window frees a slot.
 */
export async function consumeRateLimit(
  ctx: ServiceContext,
  kind: "create" | "test" | "recover",
  organizationId: string,
): Promise<void> {
  const limit = { table: "webhook_rate_limits", prefix: "webhooks", points: RATE_LIMIT_PER_HOUR, windowSeconds: 3600 };
  const counted = await countCall(ctx.services.knex, limit, `${kind}:${organizationId}`);
  if (!counted.allowed) {
    const message = `At most ${RATE_LIMIT_PER_HOUR} webhook ${kind} calls per hour: retry later`;
    throw new RateLimitedError(message, counted.retryAfterSeconds);
  }
}

/**
 * Checks `url` with the outbound guard (as every delivery will).
 * @throws BadUserInputError on `url` when the host is refused, invalid or does not resolve.
 */
async function checkEndpointUrl(ctx: ServiceContext, url: string): Promise<void> {
  try {
    await ctx.services.outbound.checkUrl(url);
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    const message =
      e instanceof OutboundBlockedError
        ? `Refused: ${e.reason}`
        : e instanceof OutboundInvalidUrlError
          ? e.message
          : `The host cannot be resolved: ${e.message}`;
    throw new BadUserInputError(`Invalid input: url: ${message}`, { fieldErrors: { url: [message] } });
  }
}

/** The endpoint `webhookUuid` of `org`. @throws NotFoundError when missing or another organization's. */
export async function endpointOf(ctx: ServiceContext, org: WebhookOrganization, webhookUuid: string) {
  const row = (await ctx
    .knex("webhook_endpoints")
    .where({ id: webhookUuid, organization_id: org.organizationId })
    .first()) as WebhookEndpointRow | undefined;
  if (!row) throw new NotFoundError("Webhook", webhookUuid);
  return row;
}

/**
 * Refuses to send to an inactive endpoint what `doing` names (a redelivery, a recovery): it gets no delivery until
 * it is set active again (only the test `ping` reaches it). @throws BadUserInputError on `webhookUuid`.
 */
export function refuseInactive(endpoint: Pick<WebhookEndpointRow, "isActive">, doing: string): void {
  if (endpoint.isActive) return;
  const message = `The endpoint is inactive: set it active before ${doing}`;
  throw new BadUserInputError(`Invalid input: webhookUuid: ${message}`, { fieldErrors: { webhookUuid: [message] } });
}

/** `GET …/webhooks/events`: the catalogue. @throws as {@link webhookOrganization}. */
export async function listWebhookEventTypes(ctx: ServiceContext, orgRef: string): Promise<WebhookEventType[]> {
  await webhookOrganization(ctx, orgRef);
  return webhookEventTypes();
}

/**
 * `POST …/webhooks`: a new endpoint with a new secret (returned this once, stored encrypted). `givenSecret` (the
 * organization import: the bundle's signing secret, so receivers keep verifying) replaces the generated one; it must
 * be 16 to 200 characters.
 * @throws BadUserInputError, RateLimitedError (20 per hour per organization), and the gate's errors.
 */
export async function createWebhook(
  ctx: ServiceContext,
  orgRef: string,
  raw: CreateWebhookInput,
  givenSecret?: string,
): Promise<WebhookWithSecret> {
  const org = await webhookOrganization(ctx, orgRef);
  const input = parseInput(createInput, raw);
  if (givenSecret !== undefined && (givenSecret.length < 16 || givenSecret.length > 200)) {
    throw new BadUserInputError("Invalid input: secret: 16 to 200 characters", {
      fieldErrors: { secret: ["16 to 200 characters"] },
    });
  }
  await checkEndpointUrl(ctx, input.url);
  await consumeRateLimit(ctx, "create", org.organizationId);
  const secret = givenSecret ?? generateWebhookSecret();
  const id = `webhook_${randomUUID()}`;
  noteAuditTarget(ctx, id);
  // One statement, the call's audit entry (naming the new endpoint) in it: endpoint and entry commit together.
  const [webhook] = await writeWithAuditEntry<WebhookEndpointRow>(
    ctx,
    ctx
      .knex("webhook_endpoints")
      .insert({
        id,
        organization_id: org.organizationId,
        url: input.url,
        events: input.events,
        secret_encrypted: ctx.services.secrets.encrypt(secret),
        is_active: input.isActive ?? true,
        description: input.description ?? null,
        created_by_user_id: ctx.caller?.userId ?? null,
      })
      .returning("*"),
  );
  return { webhook: webhook!, secret };
}

/**
 * `PUT …/webhooks/{uuid}`: changes URL, events, description or active state. Deactivating cancels the pending
 * attempts; reactivating clears the failure streak.
 * @throws BadUserInputError, NotFoundError, and the gate's errors.
 */
export async function updateWebhook(
  ctx: ServiceContext,
  orgRef: string,
  webhookUuid: string,
  raw: UpdateWebhookInput,
): Promise<WebhookEndpointRow> {
  const org = await webhookOrganization(ctx, orgRef);
  const input = parseInput(updateInput, raw);
  await endpointOf(ctx, org, webhookUuid);
  if (input.url) await checkEndpointUrl(ctx, input.url);
  return withTransaction(ctx, async (tx) => {
    const current = (await tx.knex("webhook_endpoints").where({ id: webhookUuid }).forUpdate().first()) as
      | WebhookEndpointRow
      | undefined;
    // Deleted since it was found: as if it had never been.
    if (!current) throw new NotFoundError("Webhook", webhookUuid);
    const patch: Record<string, unknown> = { updated_at: tx.knex.fn.now() };
    if (input.url) patch.url = input.url;
    if (input.events) patch.events = input.events;
    if (input.description !== undefined) patch.description = input.description;
    if (input.isActive === false && current.isActive)
      await cancelPendingDeliveries(tx.knex, ctx.services.jobs, webhookUuid);
    if (input.isActive === true && !current.isActive) patch.failing_since = null;
    if (typeof input.isActive === "boolean") patch.is_active = input.isActive;
    const [row] = await tx.knex("webhook_endpoints").where({ id: webhookUuid }).update(patch).returning("*");
    return row as WebhookEndpointRow;
  });
}

/** `DELETE …/webhooks/{uuid}`: removes it, its log and its pending attempts. @returns the uuid. */
export async function deleteWebhook(ctx: ServiceContext, orgRef: string, webhookUuid: string): Promise<string> {
  const org = await webhookOrganization(ctx, orgRef);
  await endpointOf(ctx, org, webhookUuid);
  await withTransaction(ctx, async (tx) => {
    await cancelPendingDeliveries(tx.knex, ctx.services.jobs, webhookUuid);
    // Of concurrent deletes, the one whose statement removed the row answers; the others find it gone.
    if (!(await tx.knex("webhook_endpoints").where({ id: webhookUuid }).delete())) {
      throw new NotFoundError("Webhook", webhookUuid);
    }
  });
  return webhookUuid;
}

/** `POST …/{uuid}/regenerate-secret`: a new secret (returned once); the next attempt of any delivery uses it. */
export async function regenerateWebhookSecret(
  ctx: ServiceContext,
  orgRef: string,
  webhookUuid: string,
): Promise<WebhookWithSecret> {
  const org = await webhookOrganization(ctx, orgRef);
  await endpointOf(ctx, org, webhookUuid);
  const secret = generateWebhookSecret();
  const [webhook] = await writeWithAuditEntry<WebhookEndpointRow>(
    ctx,
    ctx
      .knex("webhook_endpoints")
      .where({ id: webhookUuid })
      .update({ secret_encrypted: ctx.services.secrets.encrypt(secret), updated_at: ctx.knex.fn.now() })
      .returning("*"),
  );
  // Deleted since it was found: as if it had never been.
  if (!webhook) throw new NotFoundError("Webhook", webhookUuid);
  return { webhook, secret };
}

/** Answer of the test operation. */
export interface WebhookTestOutcome {
  deliveryId: string;
  /**
   * The first attempt's log entry; null when no worker ran it within the attempt budget plus 5 s, or by the
   * answer-by moment of a graceful shutdown (then REST answers 202 with the pending delivery).
   */
  firstAttempt: WebhookAttemptRow | null;
}

/**
 * `POST …/{uuid}/test`: sends `ping` (`data: { message }`) to the endpoint, active or not, as a normal delivery
 * (retries included), and waits for its first attempt's outcome (see {@link WebhookTestOutcome.firstAttempt}).
 * @throws RateLimitedError (20 per hour per organization), NotFoundError, and the gate's errors.
 */
export async function testWebhook(
  ctx: ServiceContext,
  orgRef: string,
  webhookUuid: string,
): Promise<WebhookTestOutcome> {
  const org = await webhookOrganization(ctx, orgRef);
  await endpointOf(ctx, org, webhookUuid);
  await consumeRateLimit(ctx, "test", org.organizationId);
  const [delivery] = await emitWebhookEvent(
    { knex: ctx.services.knex, services: ctx.services },
    org.organizationId,
    "ping",
    { message: PING_MESSAGE },
    { endpointId: webhookUuid },
  );
  const deliveryId = delivery!.deliveryId;
  // Written on the pool: the call's audit entry, written after it, is told the delivery it created.
  noteAuditTarget(ctx, deliveryId);
  // A wait for a job, not execution time of the operation (src/shared/execution-waits.ts); ended sooner by a graceful
  // shutdown (src/shared/shutdown.ts): the answer is then the pending delivery, whose attempts go on in the queue.
  const firstAttempt = await outsideExecutionTime(ctx, firstAttemptOf(ctx, deliveryId));
  return { deliveryId, firstAttempt };
}

/**
 * The first attempt of `deliveryId`, polled every 20 ms for the attempt's budget plus 5 s, or until the answer-by
 * moment of a graceful shutdown; null when it has not been made by then.
 */
async function firstAttemptOf(ctx: ServiceContext, deliveryId: string): Promise<WebhookAttemptRow | null> {
  let waiting = true;
  const cancel = ctx.services.shutdown.deadline(ATTEMPT_TIMEOUT_MS + 5000, () => {
    waiting = false;
  });
  try {
    while (waiting) {
      const first = (await ctx.services
        .knex("webhook_delivery_attempts")
        .where({ delivery_id: deliveryId, attempt: 1 })
        .first()) as WebhookAttemptRow | undefined;
      if (first) return first;
      await new Promise((r) => setTimeout(r, 20));
    }
    return null;
  } finally {
    cancel();
  }
}

/**
 * `POST …/{uuid}/deliveries/{delivery_id}/redeliver`: a new series of 3 attempts of the stored body, same
 * `delivery_id` (a series still pending is replaced). @returns the delivery id.
 * @throws NotFoundError for an unknown delivery of this endpoint, BadUserInputError when the endpoint is inactive.
 */
export async function redeliverWebhook(
  ctx: ServiceContext,
  orgRef: string,
  webhookUuid: string,
  deliveryId: string,
): Promise<string> {
  const org = await webhookOrganization(ctx, orgRef);
  refuseInactive(await endpointOf(ctx, org, webhookUuid), "redelivering");
  return withTransaction(ctx, async (tx) => {
    const n = await tx.knex("webhook_deliveries").where({ id: deliveryId, endpoint_id: webhookUuid }).update({
      status: "pending",
      attempts: 0,
      updated_at: tx.knex.fn.now(),
      next_attempt_at: tx.knex.fn.now(),
      locked_until: null,
      locked_by: null,
      force: false,
    });
    if (!n) throw new NotFoundError("Delivery", deliveryId);
    // A series of the previous release still queued as a job is replaced by this one.
    await ctx.services.jobs.remove(tx.knex, [deliveryJobKey(deliveryId)]);
    await announceDue(tx.knex);
    return deliveryId;
  });
}

/**
 * `POST /api/v1/orgs/{org_id}/events` and `publishWebhookEvent`: `data` validated against the event's schema,
 * then one delivery per active endpoint subscribed to it, each named by the call's audit entry.
 * @throws BadUserInputError (unknown event; `data` fields named as `data.<path>`), and the gate's errors.
 */
export async function publishWebhookEvent(
  ctx: ServiceContext,
  orgRef: string,
  event: string,
  data: Record<string, unknown>,
): Promise<CreatedDelivery[]> {
  const org = await webhookOrganization(ctx, orgRef);
  const definition = webhookEvent(event);
  if (!definition) {
    throw new BadUserInputError(`Invalid input: event: unknown event ${echoed(event)}`, {
      fieldErrors: { event: [`Unknown event: ${echoed(event)}`] },
    });
  }
  const parsed = definition.data.safeParse(data);
  if (!parsed.success) {
    const err = toBadUserInput(parsed.error, `data does not match the ${event} schema`);
    const fieldErrors = Object.fromEntries(
      Object.entries((err.extensions.fieldErrors ?? {}) as Record<string, string[]>).map(([k, v]) => [`data.${k}`, v]),
    );
    const formErrors = (err.extensions.formErrors ?? []) as string[];
    throw new BadUserInputError(err.message.replace(/: ([^:]+):/, ": data.$1:"), {
      fieldErrors,
      formErrors,
    });
  }
  return withTransaction(ctx, async (tx) => {
    const deliveries = await emitWebhookEvent(tx, org.organizationId, event, data);
    for (const { deliveryId } of deliveries) noteAuditTarget(tx, deliveryId);
    return deliveries;
  });
}
