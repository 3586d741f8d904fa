/**
 * The payment event relay (spec: Events → Payment gateway events; Authentication → Payment event signature;
 * Errors; Limits). The gateway POSTs each event to `POST /api/payment-gateway/events`
 * with the merchant code in the JSON body (`merchantCode`) and `x-gateway-signature` = lowercase hex HMAC-SHA256
 * of the raw body keyed with the merchant's signing key (no prefix, no timestamp). A verified event is relayed
 * unchanged (same bytes, same signature, same content type) to every configured webhook URL of the organization's
 * gateway services: once, 10-second timeout, no retry, no queue; a failure is logged as lost for that URL.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Knex } from "knex";
import { newId } from "../../db/ids.ts";
import { missingReference } from "../../db/pg-errors.ts";
import { OutboundBlockedError, OutboundError, OutboundInvalidUrlError } from "../../http/outbound-errors.ts";
import type { RestResponse } from "../../shared/rest-route.ts";
import type { AppServices } from "../services.ts";
import { KNOWN_EVENT_TYPES, type PaymentGatewayService, type PaymentRelay } from "./payment.model.ts";

/** Payment event delivery: 1 attempt, 10-second timeout (spec: Limits). */
export const RELAY_TIMEOUT_MS = 10_000;

/** Largest event body accepted (bytes). */
export const MAX_EVENT_BYTES = 256 * 1024;

/** What the relay needs of an incoming request. */
export interface IncomingEvent {
  /** The body exactly as received. */
  rawBody: Buffer;
  /** The `x-gateway-signature` header. */
  signature: string | undefined;
  /** The `content-type` header, relayed as is. */
  contentType: string | undefined;
}

const unauthorized = (error: string): RestResponse => ({ status: 401, body: { error } });

/**
 * True when `signature` is the lowercase hex HMAC-SHA256 of `rawBody` keyed with `key`: lengths compared first,
 * then the bytes in constant time.
 */
export function verifySignature(rawBody: Buffer, signature: string | undefined, key: string): boolean {
  if (typeof signature !== "string") return false;
  const expected = Buffer.from(createHmac("sha256", key).update(rawBody).digest("hex"), "utf8");
  const given = Buffer.from(signature, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The merchant code an event names (`merchantCode` in its JSON body), or null. */
function merchantCodeOf(event: unknown): string | null {
  const code = (event as { merchantCode?: unknown } | null)?.merchantCode;
  return typeof code === "string" && code.length > 0 && code.length <= 200 ? code : null;
}

/**
 * Verifies and relays one event. @returns 401 `{ error }` for an unidentifiable or unknown merchant or a bad
 * signature (nothing relayed); 413 for a body over {@link MAX_EVENT_BYTES}; otherwise, after every relay ended,
 * 200 `{ received: true, relays }` (relays attempted, whatever their outcome: the gateway's event was accepted), with
 * the merchant's organization for the audit log.
 */
export async function receivePaymentEvent(services: AppServices, event: IncomingEvent): Promise<RestResponse> {
  const { knex, secrets, log } = services;
  if (event.rawBody.length > MAX_EVENT_BYTES) return { status: 413, body: { error: "event body too large" } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.rawBody.toString("utf8"));
  } catch {
    return unauthorized("cannot verify the event: the body is not JSON naming a merchantCode");
  }
  const code = merchantCodeOf(parsed);
  if (!code) return unauthorized("cannot verify the event: the body is not JSON naming a merchantCode");
  // Text equality in PostgreSQL is case-sensitive, as merchant codes are.
  const merchant = await knex("payment_merchants").where({ merchantCode: code, status: "active" }).first();
  let key: string | null = null;
  try {
    key = merchant?.signingKeySealed ? secrets.decrypt(merchant.signingKeySealed) : null;
  } catch (err) {
    log.error({ err }, "payment merchant signing key cannot be decrypted (was SKIFF_SECRET changed?)");
  }
  if (!key || !verifySignature(event.rawBody, event.signature, key)) {
    log.warn({ merchantKnown: Boolean(merchant) }, "payment event refused: unknown merchant or bad signature");
    return unauthorized("invalid signature or unknown merchant");
  }
  const body = parsed as { type?: unknown; metadata?: { externalReference?: unknown } };
  const eventType = typeof body.type === "string" ? body.type.slice(0, 200) : "(none)";
  const ref = body.metadata?.externalReference;
  const externalReference = typeof ref === "string" ? ref.slice(0, 500) : null;
  const knownEvent = KNOWN_EVENT_TYPES.has(eventType);
  if (!knownEvent) log.info({ eventType }, "payment event of an unknown type: relayed all the same");
  const targets = (await knex("payment_gateway_services")
    .where({ organizationId: merchant.organizationId })
    .whereNotNull("webhookUrl")
    .orderBy("id")) as PaymentGatewayService[];
  // One request per distinct URL (services sharing a URL get the event once), one log row per service.
  const byUrl = new Map<string, Promise<RelayResult>>();
  for (const service of targets) {
    const url = service.webhookUrl!;
    if (!byUrl.has(url)) byUrl.set(url, relayOnce(services, url, event));
  }
  const rows = await Promise.all(
    targets.map(async (service) => ({
      id: newId("paymentRelay"),
      organizationId: service.organizationId,
      serviceId: service.id,
      eventType,
      knownEvent,
      externalReference,
      targetUrl: service.webhookUrl!,
      ...(await byUrl.get(service.webhookUrl!)!),
    })),
  );
  if (rows.length) await logRelays(knex, rows);
  // A verified event is its merchant's organization's (its audit entry names the services it was relayed for); one
  // that does not verify belongs to no organization (anyone may name a merchant code).
  return {
    status: 200,
    body: { received: true, relays: rows.length },
    audit: { organizationId: merchant.organizationId, targetIds: targets.map((t) => t.id) },
  };
}

/**
 * Writes the relay log `rows` in one statement, but only those of services that still exist: a service deleted while
 * its relay ran takes its log with it, and the others' rows are kept (the gateway still gets its 200: the event was
 * relayed). A deletion committing within the statement itself fails its foreign key check: the statement runs again.
 */
async function logRelays(knex: Knex, rows: ReadonlyArray<Omit<PaymentRelay, "createdAt">>): Promise<void> {
  const json = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      organization_id: r.organizationId,
      service_id: r.serviceId,
      event_type: r.eventType,
      known_event: r.knownEvent,
      external_reference: r.externalReference,
      target_url: r.targetUrl,
      outcome: r.outcome,
      status_code: r.statusCode,
      error: r.error,
      duration_ms: r.durationMs,
    })),
  );
  const insert = () =>
    knex.raw(
      `insert into payment_relays (id, organization_id, service_id, event_type, known_event, external_reference,
         target_url, outcome, status_code, error, duration_ms)
       select r.* from json_to_recordset(?::json) as r(id text, organization_id text, service_id text, event_type text,
         known_event boolean, external_reference text, target_url text, outcome text, status_code int, error text,
         duration_ms int)
       where exists (select 1 from payment_gateway_services s where s.id = r.service_id)`,
      [json],
    );
  try {
    await insert();
  } catch (err) {
    if (missingReference(err)?.table !== "payment_gateway_services") throw err;
    await insert();
  }
}

/** Outcome part of a relay log row. */
type RelayResult = Pick<PaymentRelay, "outcome" | "statusCode" | "error" | "durationMs">;

/** One POST of the event to `url` (10-second budget, no retry); never throws: the outcome is returned. */
async function relayOnce(services: AppServices, url: string, event: IncomingEvent): Promise<RelayResult> {
  const started = performance.now();
  const headers: Record<string, string> = { "x-gateway-signature": event.signature! };
  if (event.contentType) headers["content-type"] = event.contentType;
  try {
    const res = await services.outbound.request({
      method: "POST",
      url,
      headers,
      body: event.rawBody,
      timeoutMs: RELAY_TIMEOUT_MS,
      maxBodyBytes: 1024,
    });
    const delivered = res.status >= 200 && res.status < 300;
    return {
      outcome: delivered ? "delivered" : "failed",
      statusCode: res.status,
      error: delivered ? null : `answered ${res.status}`,
      durationMs: Math.round(res.durationMs),
    };
  } catch (err) {
    if (!(err instanceof OutboundError)) services.log.error({ err }, "payment relay failed unexpectedly");
    const refused = err instanceof OutboundBlockedError || err instanceof OutboundInvalidUrlError;
    return {
      outcome: refused ? "refused" : "failed",
      statusCode: null,
      error: err instanceof Error ? err.message : String(err),
      durationMs: Math.round(performance.now() - started),
    };
  }
}
