/**
 * Isolation of slow receivers (docs/webhooks.md "Isolation of slow receivers"): one instance runs at most
 * `SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY` attempts to one endpoint at once (default: a tenth of
 * `SKIFF_WORKER_CONCURRENCY`, at least 1). An attempt finding its endpoint's slots taken is parked in the queue
 * (`DeferJobError`: not an attempt, no worker held while it waits) with a run time by which a slot must have freed
 * (its attempts in flight end within their budget), and this instance makes it due (`JobQueue.runNow`) as soon as one
 * of the endpoint's attempts ends (oldest parked first; the wake-ups of one turn of the event loop in one
 * statement). When the endpoint answers slowly (its oldest attempt in flight has run for 200 ms), its other
 * due attempts are parked together in one statement (`JobQueue.postpone`) instead of being fetched one by one. So a
 * receiver that hangs for its 10 s budget holds at most that many of the instance's workers and its queued attempts
 * are neither polled nor fetched meanwhile, and a busy endpoint that answers quickly hands each freed slot to its next
 * parked attempt at once.
 */
import type { Knex } from "knex";
import type { AppServices } from "../services.ts";
import { deliveryJobKey } from "./webhook-emit.ts";

/** Shortest wait of a parked attempt, ms (its endpoint's oldest attempt may end any moment). */
const MIN_PARK_MS = 100;
/**
 * Longest wait of a parked attempt before jitter, ms: it is woken sooner when a slot frees in the instance that
 * parked it, and this bounds the wait when that instance dies (its wake-ups die with it), as the runners' liveness
 * sweep bounds the wait of the jobs it held (src/jobs/job-liveness.ts, every 30 s). An attempt still behind a hung
 * receiver then parks again: one fetch per parked attempt every 30 s at most.
 */
const MAX_PARK_MS = 30_000;
/** Parked attempts this instance wakes per endpoint, oldest first; beyond that they wait for their run time. */
const MAX_WAITERS = 10_000;
/**
 * An endpoint whose slots are all taken and whose oldest attempt in flight has run this long answers slowly (ms):
 * its other queued attempts that are due are parked together, in one statement (at most once a second, the newest
 * {@link BULK_PARK_MAX} pending deliveries), rather than fetched by workers one by one only to be put off.
 */
const SLOW_AFTER_MS = 200;
/** Pending deliveries of a slow endpoint looked at per bulk parking. */
const BULK_PARK_MAX = 1000;

/** The endpoint state of one instance: its attempts in flight and its parked attempts. */
interface EndpointState {
  /** Start times (performance.now() ms) of the attempts in flight. */
  starts: number[];
  /** Parked attempts, oldest first: delivery id → job id of its waiting run. */
  waiters: Map<string, string>;
  /** When its due attempts were last parked together (performance.now() ms), if ever. */
  bulkParkedAt?: number;
}

/** Per instance (instances in one process, as in tests, keep theirs apart): endpoint id → state. */
const endpointsByInstance = new WeakMap<Knex, Map<string, EndpointState>>();

/**
 * An endpoint whose receiver answered `410 Gone` in this instance: `at` (performance.now() ms), and `committedAt`
 * once its deactivation is committed. Until then no attempt to it starts here; afterwards only those that read the
 * endpoint after the commit (and so see it inactive): a `410` stops the sending at once, not after the few attempts
 * that had read it active. Forgotten after {@link CLOSED_KEPT_MS}.
 */
interface Closed {
  at: number;
  committedAt?: number;
}
const closedByInstance = new WeakMap<Knex, Map<string, Closed>>();
/** How long a closing is remembered (ms): longer than any attempt takes from reading its endpoint to its slot. */
const CLOSED_KEPT_MS = 60_000;
/** How soon an attempt held back by a closing runs again (ms): it then reads the endpoint as committed. */
const CLOSED_RETRY_MS = 1000;

/** The closings of `services`' instance, without those older than {@link CLOSED_KEPT_MS}. */
function closingsOf(services: Pick<AppServices, "knex">): Map<string, Closed> {
  let closed = closedByInstance.get(services.knex);
  if (!closed) {
    closed = new Map();
    closedByInstance.set(services.knex, closed);
  }
  const now = performance.now();
  for (const [id, c] of closed) if (now - c.at > CLOSED_KEPT_MS) closed.delete(id);
  return closed;
}

/**
 * Marks `endpointId` as closing (its receiver answered `410 Gone`): call before the answering attempt gives its slot
 * back, then {@link endpointClosed} once the deactivation is committed.
 */
export function closeEndpoint(services: Pick<AppServices, "knex">, endpointId: string): void {
  closingsOf(services).set(endpointId, { at: performance.now() });
}

/** The deactivation of closing endpoint `endpointId` is committed (see {@link closeEndpoint}). */
export function endpointClosed(services: Pick<AppServices, "knex">, endpointId: string): void {
  const closed = closingsOf(services).get(endpointId);
  if (closed) closed.committedAt = performance.now();
}

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
 * Takes one of `endpointId`'s slots in this instance for the attempt of `deliveryId` (budget `budgetMs`), whose
 * endpoint was read at `readAt` (performance.now() ms). When all are taken: the longest wait, i.e. until the oldest
 * attempt in flight ends its budget, plus a budget for every full round of attempts parked before this one, within
 * 100 ms – 30 s, +0–10 % jitter; the attempt is woken sooner when a slot frees here. An endpoint closing after a
 * `410 Gone` ({@link closeEndpoint}) gives no slot to an attempt that read it before its deactivation was committed:
 * that attempt runs again in a second and reads it inactive.
 */
export function takeEndpointSlot(
  services: SlotServices,
  endpointId: string,
  deliveryId: string,
  budgetMs: number,
  readAt: number,
): EndpointSlot {
  const closing = closingsOf(services).get(endpointId);
  if (closing && (closing.committedAt === undefined || readAt <= closing.committedAt)) {
    return { retryInMs: CLOSED_RETRY_MS, parked: () => undefined };
  }
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
    const wait =
      Math.min(MAX_PARK_MS, Math.max(MIN_PARK_MS, oldestEnds + rounds * budgetMs)) * (1 + Math.random() / 10);
    if (now - Math.min(...state.starts) >= SLOW_AFTER_MS && now - (state.bulkParkedAt ?? -Infinity) >= 1000) {
      state.bulkParkedAt = now;
      void parkDueAttempts(services, endpointId, state, new Date(Date.now() + wait));
    }
    return {
      retryInMs: Math.round(wait),
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
 * Parks the queued attempts of slow endpoint `endpointId` that are due now and not running until `runAt`, in one
 * statement, behind its attempts parked already (woken in that order as slots free). An error leaves them queued.
 */
async function parkDueAttempts(
  services: SlotServices,
  endpointId: string,
  state: EndpointState,
  runAt: Date,
): Promise<void> {
  try {
    const pending = (await services
      .knex("webhook_deliveries")
      .where({ endpoint_id: endpointId, status: "pending" })
      .orderBy("created_at", "desc")
      .limit(BULK_PARK_MAX)
      .pluck("id")) as string[];
    const deliveryOf = new Map(pending.map((id) => [deliveryJobKey(id), id]));
    const parked = await services.jobs.postpone(services.knex, [...deliveryOf.keys()], runAt);
    for (const { id, key } of parked) {
      const deliveryId = deliveryOf.get(key);
      if (deliveryId && state.waiters.size < MAX_WAITERS) state.waiters.set(deliveryId, id);
    }
    // Slots freed meanwhile: their wake-ups found no waiter.
    const cap = endpointSlots(services.config);
    for (let free = cap - state.starts.length; free > 0 && state.waiters.size > 0; free--)
      wake(services, endpointId, state);
  } catch (err) {
    services.log.warn({ err, endpointId }, "webhook attempts not parked together; each is put off when it runs");
  }
}

/** A parked attempt chosen to be woken: its job, and its endpoint (to wake the next one if it is gone). */
interface Wakeup {
  jobId: string;
  endpointId: string;
  state: EndpointState;
}

/** Wake-ups chosen in the current turn of the event loop, per instance: sent in one statement after it. */
const wakeupsByInstance = new WeakMap<Knex, Wakeup[]>();

/**
 * Makes `endpointId`'s oldest parked attempt due now, in one statement with the other wake-ups of this turn of the
 * event loop; one gone meanwhile (cancelled, or already running by its run time) hands the wake-up to the next while
 * a slot is free. An error leaves the attempts to their run times.
 */
function wake(services: SlotServices, endpointId: string, state: EndpointState): void {
  const next = state.waiters.entries().next();
  if (next.done) return;
  const [deliveryId, jobId] = next.value;
  state.waiters.delete(deliveryId);
  const pending = wakeupsByInstance.get(services.knex);
  if (pending) {
    pending.push({ jobId, endpointId, state });
    return;
  }
  const batch: Wakeup[] = [{ jobId, endpointId, state }];
  wakeupsByInstance.set(services.knex, batch);
  setImmediate(() => {
    wakeupsByInstance.delete(services.knex);
    services.jobs
      .runNow(
        services.knex,
        batch.map((w) => w.jobId),
      )
      .then(
        (ids) => {
          const woken = new Set(ids);
          const cap = endpointSlots(services.config);
          for (const w of batch) {
            if (!woken.has(w.jobId) && w.state.starts.length < cap) wake(services, w.endpointId, w.state);
          }
        },
        (err: unknown) =>
          services.log.warn({ err, jobs: batch.length }, "webhook attempts not woken; they run at their time"),
      );
  });
}
