/**
 * Metrics of the reconcile (reconcile.ts) on prom-client's default registry (served at `/metrics`):
 * - `skiff_reconcile_deleted_objects_total{kind, trigger}`: cluster objects the reconcile deleted because no row
 *   calls for them any more, `trigger` = `change` (enqueued by a change) | `periodic` (the safety net: anything
 *   counted here was left behind by a crash or a lost job);
 * - `skiff_reconcile_runs_total{trigger, outcome}`: reconciles of one organization, `outcome` = `success` | `failure`
 *   (a failure is retried with backoff).
 * Registered once per process (idempotent), every known label value at 0 from the first scrape.
 */
import client from "prom-client";
import { MANAGED_KINDS } from "./cluster.kinds.ts";

/** What enqueued a reconcile. */
export const RECONCILE_TRIGGERS = ["change", "periodic"] as const;
/** What enqueued a reconcile: a row change, or the periodic safety net. */
export type ReconcileTrigger = (typeof RECONCILE_TRIGGERS)[number];

/** The series of {@link reconcileMetrics}. */
interface ReconcileMetrics {
  deleted: client.Counter<"kind" | "trigger">;
  runs: client.Counter<"trigger" | "outcome">;
}

let registered: ReconcileMetrics | undefined;

/** The reconcile's series, registered (with every known label value at 0) on first use. */
export function reconcileMetrics(): ReconcileMetrics {
  if (registered) return registered;
  const get = <T>(name: string, create: () => T): T =>
    (client.register.getSingleMetric(name) as T | undefined) ?? create();
  const deleted = get(
    "skiff_reconcile_deleted_objects_total",
    () =>
      new client.Counter({
        name: "skiff_reconcile_deleted_objects_total",
        help: "Cluster objects the reconcile deleted because no row calls for them, by kind and trigger",
        labelNames: ["kind", "trigger"] as const,
      }),
  );
  const runs = get(
    "skiff_reconcile_runs_total",
    () =>
      new client.Counter({
        name: "skiff_reconcile_runs_total",
        help: "Reconciles of one organization, by trigger and outcome",
        labelNames: ["trigger", "outcome"] as const,
      }),
  );
  for (const trigger of RECONCILE_TRIGGERS) {
    for (const [, kind] of MANAGED_KINDS) deleted.inc({ kind, trigger }, 0);
    for (const outcome of ["success", "failure"]) runs.inc({ trigger, outcome }, 0);
  }
  registered = { deleted, runs };
  return registered;
}
