/**
 * The audit log's cost, on prom-client's default registry (served at `/metrics`):
 * `skiff_audit_write_seconds{kind}` — seconds spent writing one entry (finding its organization included), `kind` =
 * `mutation` (in the change's transaction, or after it), `call` (agent API, MCP, sign-in, callbacks) or `system` (a
 * job's change). `npm run bench:import` compares its sum with the requests' own time (docs/performance.md).
 * Registered once per process, every kind at 0 from the first scrape.
 */
import client from "prom-client";

/** What an entry records: a mutation, a call that is not one, or a job's change. */
export type AuditWriteKind = "mutation" | "call" | "system";

const NAME = "skiff_audit_write_seconds";

let histogram: client.Histogram<"kind"> | undefined;

/** The histogram, registered (every kind at 0) on first use. */
function writes(): client.Histogram<"kind"> {
  if (histogram) return histogram;
  histogram =
    (client.register.getSingleMetric(NAME) as client.Histogram<"kind"> | undefined) ??
    new client.Histogram({
      name: NAME,
      help: "Seconds to write one audit log entry, by kind (mutation, call, system)",
      labelNames: ["kind"] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    });
  for (const kind of ["mutation", "call", "system"] as const) histogram.zero({ kind });
  return histogram;
}

/** Records one entry of `kind` written in `seconds`. */
export function observeAuditWrite(kind: AuditWriteKind, seconds: number): void {
  writes().labels(kind).observe(seconds);
}

// Registered with the module: the series exist (at 0) from the first scrape.
writes();
