/**
 * Isolation of slow receivers (docs/webhooks.md "Isolation of slow receivers"): one instance runs at most
 * `SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY` attempts to one endpoint at once (default: a tenth of
 * `SKIFF_WORKER_CONCURRENCY`, at least 1). An attempt finding its endpoint's slots taken is parked in the queue
 * (`DeferJobError`: not an attempt, no worker held while it waits) with a run time by which a slot must have freed
 * (its attempts in flight end within their budget), and this instance makes it due (`JobQueue.runNow`) as soon as one
 * of the endpoint's attempts ends: a receiver that hangs for its 10 s budget holds at most that many of the
 * instance's workers, its parked attempts are neither polled nor fetched meanwhile, and a busy endpoint that
 * answers quickly hands each freed slot to its next parked attempt at once.
 */
import type { Knex } from "knex";
import type { AppServices } from "../services.ts";

/** Shortest wait of a parked attempt, ms (its endpoint's oldest attempt may end any moment). */
const MIN_PARK_MS = 100;
/** Longest wait of a parked attempt, ms (it is woken sooner when a slot frees in this instance). */
const MAX_PARK_MS = 600_000;
/** Parked attempts this instance wakes per endpoint, oldest first; beyond that they wait for their run time. */
const MAX_WAITERS = 10_000;

/** The endpoint state of one instance: its attempts in flight and its parked attempts. */
interface EndpointState {
  /** Start times (performance.now() ms) of the attempts in flight. */
  starts: number[];
  /** Parked attempts, oldest first: delivery id → job id of its waiting run. */
  waiters: Map<string, string>;
}

/** Per instance (instances in one process, as in tests, keep theirs apart): endpoint id → state. */
const endpointsByInstance = new WeakMap<Knex, Map<string, EndpointState>>();

/** The per-endpoint cap of this instance's configuration (see the file comment). */
export function endpointSlots(
  config: Pick<AppServices["config"], "SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY" | "SKIFF_WORKER_CONCURRENCY">,
): number {
  return config.SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY ?? Math.max(1, Math.floor(config.SKIFF_WORKER_CONCURRENCY / 10));
}

/**
 * A taken slot (`giveBack` once the attempt's request ended), or a parking: wait at most `retryInMs`, and call
 * `parked(jobId)` once the waiting run is queued, so a freed slot wakes it.
 */
export type EndpointSlot = { giveBack: () => void } | { retryInMs: number; parked: (jobId: string) => void };

/** What taking a slot needs. */
type SlotServices = Pick<AppServices, "knex" | "config" | "jobs" | "log">;

/**
 * Takes one of `endpointId`'s slots in this instance for the attempt of `deliveryId` (budget `budgetMs`). When all
 * are taken: the longest wait, i.e. until the oldest attempt in flight ends its budget, plus a budget for every
 * full round of attempts parked before this one (+0–10 % jitter, within 100 ms – 10 min); the attempt is woken
 * sooner when a slot frees here.
 */
export function takeEndpointSlot(
  services: SlotServices,
  endpointId: string,
  deliveryId: string,
  budgetMs: number,
): EndpointSlot {
  let endpoints = endpointsByInstance.get(services.knex);
  if (!endpoints) {
    endpoints = new Map();
    endpointsByInstance.set(services.knex, endpoints);
  }
  const all = endpoints;
  const state = all.get(endpointId) ?? { starts: [], waiters: new Map<string, string>() };
  all.set(endpointId, state);
  // Running now: no longer parked (woken, or due by its run time).
  state.waiters.delete(deliveryId);
  const cap = endpointSlots(services.config);
  const now = performance.now();
  if (state.starts.length >= cap) {
    const oldestEnds = Math.min(...state.starts) + budgetMs - now;
    const rounds = Math.floor(state.waiters.size / cap);
    const wait = Math.max(MIN_PARK_MS, oldestEnds + rounds * budgetMs) * (1 + Math.random() / 10);
    return {
      retryInMs: Math.round(Math.min(MAX_PARK_MS, wait)),
      parked: (jobId) => {
        if (state.waiters.size < MAX_WAITERS) state.waiters.set(deliveryId, jobId);
        // A slot freed between the decision and the queueing: nobody woke this run yet.
        if (state.starts.length < cap) wake(services, endpointId, state);
      },
    };
  }
  state.starts.push(now);
  let given = false;
  return {
    giveBack: () => {
      if (given) return;
      given = true;
      const i = state.starts.indexOf(now);
      if (i >= 0) state.starts.splice(i, 1);
      if (state.waiters.size > 0) wake(services, endpointId, state);
      else if (state.starts.length === 0 && all.get(endpointId) === state) all.delete(endpointId);
    },
  };
}

/**
 * Makes `endpointId`'s oldest parked attempt due now; one gone meanwhile (cancelled, or already running by its run
 * time) hands the wake-up to the next. An error leaves the attempts to their run times.
 */
function wake(services: SlotServices, endpointId: string, state: EndpointState): void {
  const next = state.waiters.entries().next();
  if (next.done) return;
  const [deliveryId, jobId] = next.value;
  state.waiters.delete(deliveryId);
  services.jobs.runNow(services.knex, [jobId]).then(
    (woken) => {
      if (woken.length === 0 && state.starts.length < endpointSlots(services.config)) wake(services, endpointId, state);
    },
    (err: unknown) => services.log.warn({ err, endpointId }, "webhook attempt not woken; it runs at its time"),
  );
}
