/**
 * Isolation of slow receivers (docs/webhooks.md "Isolation of slow receivers"): one instance runs at most
 * `SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY` attempts to one endpoint at once (default: a quarter of
 * `SKIFF_WORKER_CONCURRENCY`, at least 1). An attempt finding its endpoint's slots taken is put off in the queue
 * (`DeferJobError`: not an attempt, no worker held while it waits), so a receiver that hangs for its 10 s budget holds
 * at most that many of the instance's workers and the other endpoints' attempts keep running.
 */
import type { Knex } from "knex";
import type { AppServices } from "../services.ts";

/** First wait of a put-off attempt, ms; it doubles with each put-off run of the same attempt. */
const FIRST_DEFER_MS = 100;
/** Longest wait of a put-off attempt, ms (the attempt budget: a slot frees within it). */
const MAX_DEFER_MS = 10_000;

/** Attempts in flight per endpoint, per instance (instances in one process, as in tests, keep theirs apart). */
const inFlightByInstance = new WeakMap<Knex, Map<string, number>>();

/** The per-endpoint cap of this instance's configuration (see the file comment). */
export function endpointSlots(config: AppServices["config"]): number {
  return config.SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY ?? Math.max(1, Math.floor(config.SKIFF_WORKER_CONCURRENCY / 4));
}

/**
 * Takes one of `endpointId`'s slots in this instance.
 * @returns the function that gives it back (call it once the attempt's request ended), or null when all are taken.
 */
export function takeEndpointSlot(
  services: Pick<AppServices, "knex" | "config">,
  endpointId: string,
): (() => void) | null {
  let inFlight = inFlightByInstance.get(services.knex);
  if (!inFlight) {
    inFlight = new Map();
    inFlightByInstance.set(services.knex, inFlight);
  }
  const counts = inFlight;
  const taken = counts.get(endpointId) ?? 0;
  if (taken >= endpointSlots(services.config)) return null;
  counts.set(endpointId, taken + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const left = (counts.get(endpointId) ?? 1) - 1;
    if (left <= 0) counts.delete(endpointId);
    else counts.set(endpointId, left);
  };
}

/**
 * Wait before the next run of an attempt put off `deferrals` times already, ms: 100 ms doubling up to 10 s, with
 * jitter (×0.5–1) so the put-off attempts of one endpoint do not all come back at once.
 */
export function deferDelayMs(deferrals: number): number {
  const ceiling = Math.min(MAX_DEFER_MS, FIRST_DEFER_MS * 2 ** Math.min(deferrals, 10));
  return Math.round(ceiling * (0.5 + Math.random() / 2));
}
