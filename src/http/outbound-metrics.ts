/**
 * Prometheus metrics of the outbound client, on prom-client's default registry (served at `/metrics`).
 * Registered once per process however many clients are created (tests start several instances), when the first
 * client is created (at start), with every `outcome` at 0 so `rate()` and absent-alerts work from the first scrape.
 */
import client from "prom-client";
import { OUTBOUND_OUTCOMES, type OutboundOutcome } from "./outbound-errors.ts";

function counter(): client.Counter<"outcome"> {
  const name = "skiff_outbound_requests_total";
  return (
    (client.register.getSingleMetric(name) as client.Counter<"outcome"> | undefined) ??
    new client.Counter({ name, help: "Outbound HTTP calls to user-given URLs, by outcome", labelNames: ["outcome"] })
  );
}

function histogram(): client.Histogram<"outcome"> {
  const name = "skiff_outbound_request_duration_seconds";
  return (
    (client.register.getSingleMetric(name) as client.Histogram<"outcome"> | undefined) ??
    new client.Histogram({
      name,
      help: "Duration of outbound HTTP calls (resolution to last body byte), by outcome",
      labelNames: ["outcome"],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    })
  );
}

let registered = false;

/** Registers both series (idempotent) with every known `outcome` at 0. Called by createOutboundClient. */
export function registerOutboundMetrics(): void {
  if (registered) return;
  registered = true;
  const requests = counter();
  const duration = histogram();
  for (const outcome of OUTBOUND_OUTCOMES) {
    requests.inc({ outcome }, 0);
    duration.zero({ outcome });
  }
}

/**
 * Records one finished call: `skiff_outbound_requests_total{outcome}` +1 and its duration (ms, stored in
 * seconds) in `skiff_outbound_request_duration_seconds{outcome}`.
 */
export function recordOutbound(outcome: OutboundOutcome, durationMs: number): void {
  counter().inc({ outcome });
  histogram().observe({ outcome }, durationMs / 1000);
}
