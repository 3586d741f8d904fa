/**
 * The ledger of a webhook benchmark's run (docs/webhooks.md "Benchmark"), for bench/webhooks.ts and
 * bench/webhook-instances.ts: how each of the run's deliveries ended and how many attempts it logged, against what
 * their receiver counted (published = delivered + failed and logged; lost, doubled and bad signatures 0), and how it
 * is printed.
 */
import type { Knex } from "knex";

/** Of each delivery of `ids`: its status (`delivered`, `failed`, `pending`) and its logged attempts. */
async function deliveryOutcomes(
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

/**
 * A run's ledger: published (its deliveries) = delivered (marked so and received) + failed with its attempts logged;
 * lost: neither; doubled: received more often than attempts were logged — `redelivered` when a killed instance held
 * the delivery under lease (at least once, as the queue promises). `balanced`: none lost, none doubled (bad
 * signatures are counted by the caller's receiver, apart).
 */
export interface DeliveryLedger {
  published: number;
  delivered: number;
  failedLogged: number;
  lost: number;
  redelivered: number;
  doubled: number;
  balanced: boolean;
}

/**
 * The ledger of the deliveries `ids`, from their outcomes in the database and `received` (the requests the receiver
 * counted per delivery id); `held`: the deliveries a killed instance held under lease.
 */
export async function deliveryLedger(
  knex: Knex,
  ids: readonly string[],
  received: ReadonlyMap<string, number>,
  held: ReadonlySet<string> = new Set(),
): Promise<DeliveryLedger> {
  const { statusOf, attempts } = await deliveryOutcomes(knex, ids);
  const doubled = ids.filter((id) => (received.get(id) ?? 0) > (attempts.get(id) ?? 0));
  const delivered = ids.filter((id) => statusOf.get(id) === "delivered" && received.has(id)).length;
  const failedLogged = ids.filter((id) => statusOf.get(id) === "failed" && (attempts.get(id) ?? 0) > 0).length;
  const figures = {
    published: ids.length,
    delivered,
    failedLogged,
    lost: ids.length - delivered - failedLogged,
    redelivered: doubled.filter((id) => held.has(id)).length,
    doubled: doubled.filter((id) => !held.has(id)).length,
  };
  return { ...figures, balanced: figures.lost === 0 && figures.doubled === 0 };
}

/** `l` as printed, with the run's `badSignatures`; `killed`: the run SIGKILLed an instance (redeliveries shown). */
export function printLedger(l: DeliveryLedger, badSignatures: number, killed = false): string {
  const balanced = l.balanced && badSignatures === 0;
  return `ledger ${balanced ? "balanced" : "VOID"}: published ${l.published} = delivered ${l.delivered} + failed and logged ${l.failedLogged}; lost ${l.lost}, ${killed ? `redelivered after the kill ${l.redelivered} (same delivery_id twice, counted once), other doubles` : "doubled"} ${l.doubled}, bad signatures ${badSignatures}`;
}
