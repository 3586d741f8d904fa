/**
 * Isolation of slow receivers (docs/webhooks.md "Isolation of slow receivers"): one instance runs at most
 * `SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY` attempts to one endpoint at once (default: a quarter of
 * `SKIFF_WORKER_CONCURRENCY`, at least 1), and fewer until the endpoint has shown it answers quickly: a window that
 * starts at {@link INITIAL_WINDOW} attempts, grows by one with each attempt answered within {@link SLOW_AFTER_MS} (so
 * it doubles with each round of quick answers, as TCP's slow start does) up to that cap, and falls back to one with
 * an answer slower than that — and while an attempt in flight has run longer than that. A receiver that hangs for
 * its 10 s budget therefore holds at most two of the instance's workers, then one, whatever the cap.
 * An attempt finding the window full is put off in the queue (`DeferJobError`: not an attempt, no worker held while
 * it waits), so the other endpoints' attempts keep running; its wait is chosen so that put-off attempts come back
 * when a slot can free rather than polling (see {@link takeEndpointSlot}).
 */
import type { Knex } from "knex";
import type { AppServices } from "../services.ts";

/** Attempts at once to an endpoint this instance has not seen answer yet. */
const INITIAL_WINDOW = 2;
/** First wait of a put-off attempt, ms; it doubles with each put-off run of the same attempt, up to {@link SLOW_AFTER_MS}. */
const FIRST_DEFER_MS = 100;
/** Wait of an attempt put off while its endpoint's window is still growing (quick answers), ms. */
const GROWING_DEFER_MS = 25;
/**
 * An endpoint whose oldest attempt in flight has run this long answers slowly (ms): a put-off attempt then waits
 * until that attempt's budget ends, the latest moment a slot frees, instead of polling (no churn for a hung receiver).
 */
const SLOW_AFTER_MS = 1000;
/**
 * An endpoint not known to answer quickly whose oldest attempt in flight has run this long (ms) has not answered
 * quickly so far (a first TLS handshake on a busy machine takes up to ~150 ms): its put-off attempts wait until
 * {@link SLOW_AFTER_MS} tells, instead of polling meanwhile.
 */
const UNANSWERED_AFTER_MS = 250;

/** What an instance knows of one endpoint: its window, and whether its last answer was quick. */
interface EndpointState {
  /** Attempts in flight, by start time (performance.now() ms). */
  starts: number[];
  /** Attempts at once it may have now (before the cap). */
  window: number;
  /** Its last attempt answered within {@link SLOW_AFTER_MS}. */
  quick: boolean;
}

/** Per instance (instances in one process, as in tests, keep theirs apart), per endpoint. */
const stateByInstance = new WeakMap<Knex, Map<string, EndpointState>>();

/** Endpoints an instance remembers before it forgets the idle ones (their windows start again). */
const MAX_KNOWN = 10_000;

/** Forgets the endpoints of `known` with no attempt in flight. */
function forgetIdle(known: Map<string, EndpointState>): void {
  for (const [id, state] of known) if (state.starts.length === 0) known.delete(id);
}

/** The per-endpoint cap of this instance's configuration (see the file comment). */
export function endpointSlots(config: AppServices["config"]): number {
  return config.SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY ?? Math.max(1, Math.floor(config.SKIFF_WORKER_CONCURRENCY / 4));
}

/** A taken slot (`giveBack` once the attempt's request ended), or how long to wait before trying again (ms). */
export type EndpointSlot = { giveBack: () => void } | { retryInMs: number };

/**
 * Takes one of `endpointId`'s slots in this instance for an attempt of budget `budgetMs` (within the endpoint's
 * window, see the file comment; giving it back after a quick answer widens the window, after a slow one narrows it
 * to one). When the window is full, the wait before trying again (with jitter, so put-off attempts do not all come
 * back at once):
 * - its oldest attempt has run {@link SLOW_AFTER_MS}: until that attempt's budget ends (+0–10 %);
 * - not known quick and its oldest attempt has run {@link UNANSWERED_AFTER_MS}: until it has run
 *   {@link SLOW_AFTER_MS} (+0–10 %);
 * - known quick, window still below the cap: {@link GROWING_DEFER_MS} (×0.5–1), as the window doubles meanwhile;
 * - otherwise 100 ms doubling with `deferrals` (the times this attempt was put off already) up to 1 s (×0.5–1).
 */
export function takeEndpointSlot(
  services: Pick<AppServices, "knex" | "config">,
  endpointId: string,
  budgetMs: number,
  deferrals: number,
): EndpointSlot {
  let endpoints = stateByInstance.get(services.knex);
  if (!endpoints) {
    endpoints = new Map();
    stateByInstance.set(services.knex, endpoints);
  }
  const known = endpoints;
  const cap = endpointSlots(services.config);
  const now = performance.now();
  const state = known.get(endpointId) ?? { starts: [], window: INITIAL_WINDOW, quick: false };
  const age = state.starts.length > 0 ? now - Math.min(...state.starts) : 0;
  const window = age >= SLOW_AFTER_MS ? 1 : Math.min(cap, state.window);
  if (state.starts.length >= window) {
    const jittered = (ms: number, spread: number) => ({
      retryInMs: Math.round(ms * (1 - spread + Math.random() * spread)),
    });
    if (age >= SLOW_AFTER_MS) return jittered(Math.max(FIRST_DEFER_MS, budgetMs - age) * 1.1, 0.1 / 1.1);
    if (!state.quick && age >= UNANSWERED_AFTER_MS) return jittered((SLOW_AFTER_MS - age) * 1.1, 0.1 / 1.1);
    if (state.quick && window < cap) return jittered(GROWING_DEFER_MS, 0.5);
    return jittered(Math.min(SLOW_AFTER_MS, FIRST_DEFER_MS * 2 ** Math.min(deferrals, 10)), 0.5);
  }
  state.starts.push(now);
  known.set(endpointId, state);
  let given = false;
  return {
    giveBack: () => {
      if (given) return;
      given = true;
      state.quick = performance.now() - now < SLOW_AFTER_MS;
      state.window = state.quick ? Math.min(cap, state.window + 1) : 1;
      const i = state.starts.indexOf(now);
      if (i >= 0) state.starts.splice(i, 1);
      if (state.starts.length === 0 && known.size > MAX_KNOWN) forgetIdle(known);
    },
  };
}
