/**
 * REST row of the payment gateway module: `POST /api/payment-gateway/events`, the inbound callback of the gateway
 * (issue 11 "Event relay"). A callback row (src/shared/rest-route.ts): no session or API key; the body is kept raw
 * because the signature covers its exact bytes; event-relay.ts checks the signature and relays.
 * Answers: 200 `{ received, relays }`; 401 `{ error }` (unknown merchant, bad or missing signature); 413.
 */
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
    handle: (req, services) =>
      receivePaymentEvent(services, {
        rawBody: req.rawBody,
        signature: header(req.headers["x-gateway-signature"]),
        contentType: header(req.headers["content-type"]),
      }),
  },
];
