/**
 * The deliveries' queue on prom-client's default registry (served at `/metrics`), registered once per process:
 * - `skiff_webhook_attempts_total{outcome}`: attempts this process ran, by outcome — `delivered`, `retry` (failed,
 *   the next attempt queued), `failed` (failed, the series ended), `skipped` (nothing sent: the delivery or its
 *   endpoint gone or inactive), `returned` (not made: given back to the queue, e.g. at shutdown); every outcome at 0
 *   from the first scrape;
 * - `skiff_webhook_attempts_in_flight`: attempts this process runs now;
 * - `skiff_webhook_deliveries_queued{state}`: pending deliveries of the queue, `due` (waiting for a claim) or
 *   `held` (leased by an instance), read from the database of the dispatchers of this process at each scrape (one
 *   statement on the due index).
 */
import type { Knex } from "knex";
import client from "prom-client";

/** What became of one claimed delivery. */
export type AttemptOutcomeLabel = "delivered" | "retry" | "failed" | "skipped" | "returned";

const OUTCOMES: readonly AttemptOutcomeLabel[] = ["delivered", "retry", "failed", "skipped", "returned"];

/** Databases the queued gauge reads (a dispatcher adds its own while it runs). */
const sources = new Set<Knex>();

/** The metrics, registered on first use. */
function metrics() {
  const attempts =
    (client.register.getSingleMetric("skiff_webhook_attempts_total") as client.Counter<"outcome"> | undefined) ??
    new client.Counter({
      name: "skiff_webhook_attempts_total",
      help: "Webhook delivery attempts run by this process, by outcome",
      labelNames: ["outcome"] as const,
    });
  for (const outcome of OUTCOMES) attempts.inc({ outcome }, 0);
  const inFlight =
    (client.register.getSingleMetric("skiff_webhook_attempts_in_flight") as client.Gauge | undefined) ??
    new client.Gauge({ name: "skiff_webhook_attempts_in_flight", help: "Webhook attempts this process runs now" });
  if (!client.register.getSingleMetric("skiff_webhook_deliveries_queued")) {
    new client.Gauge({
      name: "skiff_webhook_deliveries_queued",
      help: "Pending webhook deliveries in the queue, by state (due: waiting for a claim; held: leased)",
      labelNames: ["state"] as const,
      async collect() {
        let due = 0;
        let held = 0;
        for (const knex of sources) {
          const { rows } = (await knex.raw(
            `select count(*) filter (where locked_until is null or locked_until < now())::int as due,
               count(*) filter (where locked_until >= now())::int as held
             from webhook_deliveries where status = 'pending' and next_attempt_at is not null
               and next_attempt_at <= now()`,
          )) as { rows: Array<{ due: number; held: number }> };
          due += rows[0]?.due ?? 0;
          held += rows[0]?.held ?? 0;
        }
        this.set({ state: "due" }, due);
        this.set({ state: "held" }, held);
      },
    });
  }
  return { attempts, inFlight };
}

const registered = metrics();

/** Counts one claimed delivery's outcome. */
export function countAttempt(outcome: AttemptOutcomeLabel): void {
  registered.attempts.inc({ outcome });
}

/** One more (`+1`) or one less (`-1`) attempt in flight in this process. */
export function attemptsInFlight(delta: 1 | -1): void {
  registered.inFlight.inc(delta);
}

/** Reports the queue of `knex`'s database while a dispatcher runs on it; the returned function stops that. */
export function reportQueue(knex: Knex): () => void {
  sources.add(knex);
  return () => sources.delete(knex);
}
