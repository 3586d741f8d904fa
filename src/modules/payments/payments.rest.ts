/**
 * REST row of the payment gateway module: `POST /api/payment-gateway/events`, the inbound callback of the gateway
 * (spec "Payment gateway events"). A callback row (src/shared/rest-route.ts): no session or API key; the body is kept
 * raw because the signature covers its exact bytes; event-relay.ts checks the signature and relays. Answers: 200 `{
 * received, relays }`; 401 `{ error }` (unknown merchant, bad or missing signature); 413.
 */
import { z } from "zod";
import { ErrorBody } from "../../shared/openapi/error-bodies.ts";
import type { CallbackRestRoute } from "../../shared/rest-route.ts";
import { MAX_EVENT_BYTES, receivePaymentEvent } from "./event-relay.ts";
import { EVENTS_PATH } from "./payment-gateway.service.ts";

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The rows of the payments module. */
export const paymentRoutes: readonly CallbackRestRoute[] = [
  {
    method: "POST",
    path: EVENTS_PATH,
    published: true,
    credentials: "none",
    rawBody: true,
    bodyLimit: MAX_EVENT_BYTES,
    doc: {
      operationId: "receivePaymentGatewayEvent",
      summary: "Inbound event of the payment gateway, relayed to the merchant's webhook URL once",
      description:
        "The gateway signs the exact body bytes (HMAC-SHA256 with the merchant's secret, hex) in " +
        "`x-gateway-signature`; the body is the gateway's JSON event, read raw.",
      tag: "callbacks",
      security: "signature",
      bodyMediaType: "application/json",
      responses: {
        "200": {
          description: "Received; `relays` counts the relays made for it (0 for an event already received).",
          schema: z.looseObject({ received: z.boolean(), relays: z.int().min(0) }),
        },
        "401": { description: "Unknown merchant, or a missing or wrong signature.", schema: ErrorBody },
        "413": { description: `Body larger than ${MAX_EVENT_BYTES} bytes.` },
      },
    },
    handle: (req, services) =>
      receivePaymentEvent(services, {
        rawBody: req.rawBody,
        signature: header(req.headers["x-gateway-signature"]),
        contentType: header(req.headers["content-type"]),
      }),
  },
];
