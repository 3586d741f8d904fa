/**
 * Isolation of slow receivers (docs/webhooks.md "Isolation of slow receivers"): one instance runs at most
 * `SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY` attempts to one endpoint at once (default: a quarter of
 * `SKIFF_WORKER_CONCURRENCY`, at least 1). An attempt finding its endpoint's slots taken is put off in the queue
 * (`DeferJobError`: not an attempt, no worker held while it waits), so a receiver that hangs for its 10 s budget holds
 * at most that many of the instance's workers and the other endpoints' attempts keep running; its put-off attempts
 * wait until a slot can free rather than polling.
 */
import type { Knex } from "knex";
import type { AppServices } from "../services.ts";

/** First wait of a put-off attempt, ms; it doubles with each put-off run of the same attempt, up to {@link SLOW_AFTER_MS}. */
const FIRST_DEFER_MS = 100;
/**
 * An endpoint whose oldest attempt in flight has run this long answers slowly (ms): a put-off attempt then waits
 * until that attempt's budget ends, the latest moment a slot frees, instead of polling (no churn for a hung receiver).
 */
const SLOW_AFTER_MS = 1000;

/** Start times (performance.now() ms) of the attempts in flight, per endpoint, per instance (instances in one process, as in tests, keep theirs apart). */
const inFlightByInstance = new WeakMap<Knex, Map<string, number[]>>();

/** The per-endpoint cap of this instance's configuration (see the file comment). */
export function endpointSlots(config: AppServices["config"]): number {
  return config.SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY ?? Math.max(1, Math.floor(config.SKIFF_WORKER_CONCURRENCY / 4));
}

/** A taken slot (`giveBack` once the attempt's request ended), or how long to wait before trying again (ms). */
export type EndpointSlot = { giveBack: () => void } | { retryInMs: number };

/**
 * Takes one of `endpointId`'s slots in this instance for an attempt of budget `budgetMs`. When all are taken, the
 * wait before trying again: 100 ms doubling with `deferrals` (the times this attempt was put off already) up to
 * 1 s while the endpoint answers quickly, else until its oldest attempt's budget ends; with jitter (×0.5–1 of the
 * short waits, +0–10 % of the long one) so the put-off attempts do not all come back at once.
 */
export function takeEndpointSlot(
  services: Pick<AppServices, "knex" | "config">,
  endpointId: string,
  budgetMs: number,
  deferrals: number,
): EndpointSlot {
  let inFlight = inFlightByInstance.get(services.knex);
  if (!inFlight) {
    inFlight = new Map();
    inFlightByInstance.set(services.knex, inFlight);
  }
  const all = inFlight;
  const now = performance.now();
  const starts = all.get(endpointId) ?? [];
  if (starts.length >= endpointSlots(services.config)) {
    const oldest = Math.min(...starts);
    if (now - oldest < SLOW_AFTER_MS) {
      const ceiling = Math.min(SLOW_AFTER_MS, FIRST_DEFER_MS * 2 ** Math.min(deferrals, 10));
      return { retryInMs: Math.round(ceiling * (0.5 + Math.random() / 2)) };
    }
    const untilFree = Math.max(FIRST_DEFER_MS, oldest + budgetMs - now);
    return { retryInMs: Math.round(untilFree * (1 + Math.random() / 10)) };
  }
  starts.push(now);
  all.set(endpointId, starts);
  let given = false;
  return {
    giveBack: () => {
      if (given) return;
      given = true;
      const left = all.get(endpointId) ?? [];
      const i = left.indexOf(now);
      if (i >= 0) left.splice(i, 1);
      if (left.length === 0) all.delete(endpointId);
    },
  };
}
