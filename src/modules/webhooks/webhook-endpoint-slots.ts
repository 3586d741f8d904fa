/**
 * Isolation of slow receivers (docs/webhooks.md "Isolation of slow receivers"): one instance runs at most
 * `SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY` attempts to one endpoint at once (default: a tenth of
 * `SKIFF_WORKER_CONCURRENCY`, at least 1). The dispatcher (webhook-dispatcher.ts) counts its attempts in flight per
 * endpoint and claims no delivery of an endpoint whose slots are taken: its due deliveries wait in the table,
 * holding nothing, until a slot frees. And an endpoint whose receiver answered `410 Gone` takes no new attempt here
 * until its deactivation is committed ({@link closeEndpoint}).
 */
import type { Knex } from "knex";
import type { AppServices } from "../services.ts";

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
export const CLOSED_RETRY_MS = 1000;

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
 * Whether an attempt to `endpointId` whose endpoint was read at `readAt` (performance.now() ms) must not start here:
 * its receiver answered `410 Gone` ({@link closeEndpoint}) and the deactivation was not committed before that read.
 */
export function endpointClosing(services: Pick<AppServices, "knex">, endpointId: string, readAt: number): boolean {
  const closing = closingsOf(services).get(endpointId);
  return closing !== undefined && (closing.committedAt === undefined || readAt <= closing.committedAt);
}

/** The endpoints closing now, whatever the time of the read (a claim leaves them out). */
export function closingEndpoints(services: Pick<AppServices, "knex">): string[] {
  return [...closingsOf(services)].filter(([, c]) => c.committedAt === undefined).map(([id]) => id);
}
