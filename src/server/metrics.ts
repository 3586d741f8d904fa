/**
 * Prometheus metrics (prom-client, default registry) served at `GET /metrics`: HTTP request and GraphQL
 * operation durations, open subscriptions, database pool usage, plus prom-client's process defaults. Other
 * layers register their own series in the same default registry (outbound calls `skiff_outbound_requests_total`,
 * job queue `skiff_jobs_*`), so they appear here without wiring. Every metric is registered at start, and the label
 * values known in advance are exported at 0 from the first scrape; the HTTP histogram's status
 * codes are an outcome, not known in advance, so its series appear with their first request.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { ApolloServerPlugin } from "@apollo/server";
import Fastify, { type FastifyInstance } from "fastify";
import { parse } from "graphql";
import type { Knex } from "knex";
import client from "prom-client";

/** Returns the metric `name` already in the default registry (several servers in one test process), or creates it. */
function metric<T>(name: string, create: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? create();
}

if (!client.register.getSingleMetric("process_cpu_seconds_total")) client.collectDefaultMetrics();

/** Seconds to answer an HTTP request, by method, route pattern (`unmatched` for 404s) and status code. */
export const httpDuration = metric(
  "skiff_http_request_duration_seconds",
  () =>
    new client.Histogram({
      name: "skiff_http_request_duration_seconds",
      help: "HTTP request duration in seconds, by method, route pattern and status code",
      labelNames: ["method", "route", "status_code"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

/**
 * Seconds to run a GraphQL operation (HTTP and in-process REST), by operation name, type and outcome:
 * `success`, `error` (errors while executing) or `invalid` (refused before execution: parse, validation, limits).
 */
export const graphqlDuration = metric(
  "skiff_graphql_operation_duration_seconds",
  () =>
    new client.Histogram({
      name: "skiff_graphql_operation_duration_seconds",
      help: "GraphQL operation duration in seconds, by operation name, operation type and outcome",
      labelNames: ["operation_name", "operation_type", "outcome"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

/** GraphQL subscriptions currently open over graphql-ws. */
export const subscriptionsOpen = metric(
  "skiff_graphql_subscriptions_open",
  () => new client.Gauge({ name: "skiff_graphql_subscriptions_open", help: "GraphQL subscriptions currently open" }),
);

/** Knex pools whose usage `skiff_db_pool_connections` reports (one per running instance). */
const pools = new Set<Knex>();

metric(
  "skiff_db_pool_connections",
  () =>
    new client.Gauge({
      name: "skiff_db_pool_connections",
      help: "Database pool connections by state: used (checked out), free (idle), pending (requests waiting)",
      labelNames: ["state"] as const,
      collect() {
        let used = 0;
        let free = 0;
        let pending = 0;
        for (const knex of pools) {
          const pool = knex.client.pool as
            | { numUsed(): number; numFree(): number; numPendingAcquires(): number }
            | undefined;
          if (!pool) continue;
          used += pool.numUsed();
          free += pool.numFree();
          pending += pool.numPendingAcquires();
        }
        this.set({ state: "used" }, used);
        this.set({ state: "free" }, free);
        this.set({ state: "pending" }, pending);
      },
    }),
);

/** SQL statements the instance sent through its pool (every knex query), e.g. per event in `bench:subscriptions`. */
export const dbStatements = metric(
  "skiff_db_statements_total",
  () => new client.Counter({ name: "skiff_db_statements_total", help: "SQL statements sent through the pool" }),
);

/**
 * Includes `knex`'s pool in `skiff_db_pool_connections` and counts its statements in `skiff_db_statements_total`.
 * @returns the function that removes it (on stop).
 */
export function watchPool(knex: Knex): () => void {
  const count = () => dbStatements.inc();
  pools.add(knex);
  knex.on("query", count);
  return () => {
    pools.delete(knex);
    knex.removeListener("query", count);
  };
}

/** Distinct operation names kept as label values; later new names count as `other` (bounded cardinality). */
const MAX_OPERATION_NAMES = 200;
const operationNames = new Set<string>();

/** The label value for a client-chosen operation name: capped in length and in number of distinct values. */
function operationLabel(name: string | null | undefined): string {
  if (!name) return "anonymous";
  const label = name.slice(0, 100);
  if (operationNames.has(label)) return label;
  if (operationNames.size >= MAX_OPERATION_NAMES) return "other";
  operationNames.add(label);
  return label;
}

/** Label sets of {@link graphqlDuration} already created at 0 (zeroing again would erase observations). */
const initialised = new Set<string>();

/**
 * Creates at 0 the {@link graphqlDuration} series known before any request: operations refused
 * before they resolve (`unknown`, `unknown`, `invalid`) and, for each named operation of `documents` (the REST rows'
 * GraphQL documents), its name and type with the outcomes `success` and `error`. Their names count as known labels.
 */
export function initialiseOperationMetrics(documents: Iterable<string>): void {
  const sets: Array<{ operation_name: string; operation_type: string; outcome: string }> = [
    { operation_name: "unknown", operation_type: "unknown", outcome: "invalid" },
  ];
  for (const text of documents) {
    for (const definition of parse(text).definitions) {
      if (definition.kind !== "OperationDefinition" || !definition.name) continue;
      const name = operationLabel(definition.name.value);
      for (const outcome of ["success", "error"])
        sets.push({ operation_name: name, operation_type: definition.operation, outcome });
    }
  }
  for (const labels of sets) {
    const key = JSON.stringify(labels);
    if (initialised.has(key)) continue;
    initialised.add(key);
    graphqlDuration.zero(labels);
  }
}

/** Apollo plugin observing {@link graphqlDuration} for every operation. */
export function graphqlMetricsPlugin<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      const started = performance.now();
      let refused = false;
      return {
        async didEncounterErrors(rc) {
          // No operation resolved yet: the document did not parse or validate, or the limits refused it.
          if (!rc.operation) refused = true;
        },
        async willSendResponse(rc) {
          const body = rc.response.body;
          const errors = body.kind === "single" ? body.singleResult.errors : undefined;
          const outcome = refused ? "invalid" : errors?.length ? "error" : "success";
          graphqlDuration.observe(
            {
              operation_name: rc.operation ? operationLabel(rc.operationName) : "unknown",
              operation_type: rc.operation?.operation ?? "unknown",
              outcome,
            },
            (performance.now() - started) / 1000,
          );
        },
      };
    },
  };
}

/** Constant-time comparison of two strings (through their SHA-256 digests, so lengths do not leak either). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Observes every HTTP response of `app` in {@link httpDuration}. */
export function observeResponses(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

/**
 * Serves `GET /metrics` (Prometheus text format) on `app`: the API's own listener (SKIFF_METRICS_PORT=main) or
 * the metrics listener ({@link createMetricsServer}). With `token` set, it requires `Authorization: Bearer
 * <token>` and answers 401 otherwise.
 */
export function serveMetrics(app: FastifyInstance, token: string | undefined): void {
  app.get("/metrics", async (request, reply) => {
    if (token && !sameSecret(request.headers.authorization ?? "", `Bearer ${token}`)) {
      return reply
        .code(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ error: "Missing or invalid metrics token", code: "UNAUTHENTICATED" });
    }
    return reply.type(client.register.contentType).send(await client.register.metrics());
  });
}

/**
 * The metrics listener (SKIFF_METRICS_PORT): a Fastify instance of its own serving only `GET /metrics`, so that
 * the port the public Service and routes expose has no /metrics at all. Not listening until started.
 */
export function createMetricsServer(token: string | undefined): FastifyInstance {
  const app = Fastify({ logger: false });
  serveMetrics(app, token);
  return app;
}
