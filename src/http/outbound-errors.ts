/**
 * Typed failures of the outbound HTTP client (src/http/outbound-client.ts). Callers log `message` and show it
 * to the user (e.g. a webhook attempt's error); `outcome` is the metrics label of the failure.
 */

/** Every metrics label value of an outbound call (`skiff_outbound_requests_total{outcome}`), each exported at 0 from start. */
export const OUTBOUND_OUTCOMES = ["ok", "http_error", "blocked", "invalid_url", "timeout", "connection_error"] as const;

/** Metrics label of one outbound call (`skiff_outbound_requests_total{outcome}`). */
export type OutboundOutcome = (typeof OUTBOUND_OUTCOMES)[number];

/** Base class of every outbound failure. */
export class OutboundError extends Error {
  readonly outcome: OutboundOutcome;
  constructor(outcome: OutboundOutcome, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.outcome = outcome;
  }
}

/**
 * The URL is not an absolute `http:`/`https:` URL Skiff may call (unparsable, other scheme, credentials in it).
 * Nothing was resolved or dialled. At save time it is a 400.
 */
export class OutboundInvalidUrlError extends OutboundError {
  constructor(message: string) {
    super("invalid_url", message);
  }
}

/**
 * The host name or one of its addresses is refused by the address policy (src/http/address-policy.ts);
 * nothing was dialled. `reason` reads like `blocked address 10.0.0.5 (private)` or
 * `blocked host name db.svc.cluster.local (cluster-internal)`. At save time it is a 400; at delivery a failed
 * attempt with this reason.
 */
export class OutboundBlockedError extends OutboundError {
  readonly reason: string;
  constructor(reason: string) {
    super("blocked", reason);
    this.reason = reason;
  }
}

/**
 * The call ran out of time. `phase` `connect`: TCP connect plus TLS handshake took longer than
 * `connectTimeoutMs`; `total`: resolution, connect, request and response together took longer than `timeoutMs`.
 */
export class OutboundTimeoutError extends OutboundError {
  readonly phase: "connect" | "total";
  readonly timeoutMs: number;
  constructor(phase: "connect" | "total", timeoutMs: number, target: string) {
    super("timeout", `${phase === "connect" ? "connect" : "request"} timeout after ${timeoutMs} ms (${target})`);
    this.phase = phase;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The host could not be resolved, or the connection failed (refused, reset, closed early, TLS verification).
 * `code` is the system or library code when there is one (`ENOTFOUND`, `ECONNREFUSED`,
 * `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `UND_ERR_SOCKET`, …).
 */
export class OutboundConnectionError extends OutboundError {
  readonly code: string | undefined;
  constructor(message: string, code?: string, cause?: unknown) {
    super("connection_error", message, { cause });
    this.code = code;
  }
}
