/**
 * The PostgreSQL connections one Skiff instance may hold at once, from its configuration: printed at
 * start and documented in README "Connections per instance". Size `max_connections` (or a pooler) for
 * replicas × `total` plus your own tools.
 */
import type { Config } from "../config.ts";
import { workerPoolMax } from "../jobs/job-runner.ts";

/** Connections of one instance by holder; every field is a count of connections at most open at once. */
export interface ConnectionBudget {
  /** Knex's request pool (SKIFF_DB_POOL_MAX): GraphQL, REST, job handlers' own queries. */
  requests: number;
  /** better-auth's `pg` pool (SKIFF_AUTH_POOL_MAX). */
  auth: number;
  /** graphile-worker's pool (SKIFF_WORKER_POOL_MAX, default concurrency + 2; its LISTEN included); 0 without a worker. */
  worker: number;
  /** The job runner's named liveness connection (src/jobs/job-liveness.ts); 0 without a worker. */
  liveness: number;
  /** The subscriptions' LISTEN connection (src/shared/pubsub.ts). */
  pubsub: number;
  /** `/readyz`'s own connection (src/server/readiness.ts), so a busy request pool does not hold readiness back. */
  readiness: number;
  /** Sum of the above: the most this instance holds once started (start-up adds the job schema migration's 2). */
  total: number;
}

/** The {@link ConnectionBudget} of an instance started with `config`. */
export function connectionBudget(
  config: Pick<
    Config,
    "SKIFF_DB_POOL_MAX" | "SKIFF_AUTH_POOL_MAX" | "SKIFF_WORKER" | "SKIFF_WORKER_CONCURRENCY" | "SKIFF_WORKER_POOL_MAX"
  >,
): ConnectionBudget {
  const worker = config.SKIFF_WORKER
    ? workerPoolMax({ concurrency: config.SKIFF_WORKER_CONCURRENCY, poolMax: config.SKIFF_WORKER_POOL_MAX })
    : 0;
  const budget = {
    requests: config.SKIFF_DB_POOL_MAX,
    auth: config.SKIFF_AUTH_POOL_MAX,
    worker,
    liveness: config.SKIFF_WORKER ? 1 : 0,
    pubsub: 1,
    readiness: 1,
  };
  const total = budget.requests + budget.auth + budget.worker + budget.liveness + budget.pubsub + budget.readiness;
  return { ...budget, total };
}
