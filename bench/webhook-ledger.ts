/**
 * The database's side of a webhook benchmark's ledger (docs/webhooks.md "Benchmark"): how each of a run's deliveries
 * ended and how many attempts it logged, which bench/webhooks.ts and bench/webhook-instances.ts compare with what
 * their receiver counted (published = delivered + failed and logged; lost, doubled and bad signatures 0).
 */
import type { Knex } from "knex";

/** Of each delivery of `ids`: its status (`delivered`, `failed`, `pending`) and its logged attempts. */
export async function deliveryOutcomes(
  knex: Knex,
  ids: readonly string[],
): Promise<{ statusOf: Map<string, string>; attempts: Map<string, number> }> {
  const rows = (await knex("webhook_deliveries").whereIn("id", ids).select("id", "status")) as Array<{
    id: string;
    status: string;
  }>;
  const attemptRows = (await knex("webhook_delivery_attempts")
    .whereIn("delivery_id", ids)
    .select("delivery_id as id")
    .count("* as n")
    .groupBy("delivery_id")) as Array<{ id: string; n: string }>;
  return {
    statusOf: new Map(rows.map((r) => [r.id, r.status])),
    attempts: new Map(attemptRows.map((r) => [r.id, Number(r.n)])),
  };
}
