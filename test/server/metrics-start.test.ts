/**
 * /metrics on a fresh instance (issue 22 item 4): every Skiff metric is registered at start and the label values
 * known in advance are exported at 0 by the very first scrape — outbound outcomes, job tasks (failures, durations,
 * queue depth), refused and REST GraphQL operations — so `rate()` and absent-alerts work from the start. The sweep
 * reads the registry itself: every `skiff_*` metric must have samples on the first scrape, except the HTTP
 * histogram (its status codes are an outcome, not known in advance).
 */
import { parse } from "graphql";
import client from "prom-client";
import { describe, expect, it } from "vitest";
import { OUTBOUND_OUTCOMES } from "../../src/http/outbound-errors.ts";
import { moduleJobs, restRoutes } from "../../src/modules/index.ts";
import { useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_WORKER: "true" });

/** Metrics whose label values are not known before the first event. */
const NOT_KNOWN_IN_ADVANCE = new Set(["skiff_http_request_duration_seconds"]);

describe("/metrics on a fresh instance", () => {
  it("has every skiff_* metric, with the known label values at 0, on the first scrape", async () => {
    const text = await (await fetch(`${t.skiff.url}/metrics`)).text();
    const sample = (name: string, labels: Record<string, string>) => {
      const rendered = Object.entries(labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(",");
      const line = text.split("\n").find((l) => l.startsWith(`${name}{${rendered}}`) || l === `${name} 0`);
      return line?.slice(line.lastIndexOf(" ") + 1);
    };

    for (const outcome of OUTBOUND_OUTCOMES) {
      expect(sample("skiff_outbound_requests_total", { outcome }), outcome).toBe("0");
      expect(sample("skiff_outbound_request_duration_seconds_count", { outcome }), outcome).toBe("0");
    }
    const tasks = moduleJobs.map((j) => j.name);
    expect(tasks.length).toBeGreaterThan(5);
    for (const task of tasks) {
      for (const outcome of ["retry", "permanent"])
        expect(sample("skiff_jobs_failed_total", { task, outcome }), `${task} ${outcome}`).toBe("0");
      for (const result of ["success", "failure"])
        expect(sample("skiff_job_duration_seconds_count", { task, result }), `${task} ${result}`).toBeDefined();
      expect(sample("skiff_jobs_queued", { task }), task).toMatch(/^\d+$/);
      expect(sample("skiff_jobs_permanently_failed", { task }), task).toBe("0");
    }
    expect(text).toMatch(/^skiff_job_runners_down 0$/m);
    expect(text).toMatch(/^skiff_job_runner_restarts_total 0$/m);
    expect(text).toMatch(/^skiff_graphql_subscriptions_open 0$/m);
    expect(
      sample("skiff_graphql_operation_duration_seconds_count", {
        operation_name: "unknown",
        operation_type: "unknown",
        outcome: "invalid",
      }),
    ).toBe("0");
    const restOperations = new Set<string>();
    for (const route of restRoutes) {
      if (!("operation" in route)) continue;
      for (const d of parse(route.operation).definitions) {
        if (d.kind !== "OperationDefinition" || !d.name) continue;
        restOperations.add(d.name.value);
        for (const outcome of ["success", "error"]) {
          const labels = { operation_name: d.name.value, operation_type: d.operation, outcome };
          expect(
            sample("skiff_graphql_operation_duration_seconds_count", labels),
            JSON.stringify(labels),
          ).toBeDefined();
        }
      }
    }

    // The sweep: every skiff_* metric of the registry has samples in the first scrape.
    const table: string[] = [];
    for (const metric of await client.register.getMetricsAsJSON()) {
      if (!metric.name.startsWith("skiff_")) continue;
      const labelSets = new Set(
        metric.values.map((v) =>
          JSON.stringify(Object.fromEntries(Object.entries(v.labels).filter(([k]) => k !== "le"))),
        ),
      );
      table.push(`${metric.name} (${metric.type}): ${labelSets.size} series`);
      if (NOT_KNOWN_IN_ADVANCE.has(metric.name)) continue;
      expect(text, metric.name).toMatch(new RegExp(`^${metric.name}(_count|_total)?(\\{[^}]*\\})? \\d`, "m"));
    }
    console.info(`metrics at start (${restOperations.size} REST operations):\n${table.join("\n")}`);
    for (const name of [
      "skiff_outbound_requests_total",
      "skiff_outbound_request_duration_seconds",
      "skiff_jobs_failed_total",
      "skiff_job_duration_seconds",
      "skiff_jobs_queued",
      "skiff_jobs_permanently_failed",
      "skiff_job_runners_down",
      "skiff_job_runner_restarts_total",
      "skiff_graphql_operation_duration_seconds",
      "skiff_graphql_subscriptions_open",
      "skiff_db_pool_connections",
      "skiff_db_statements_total",
    ])
      expect(
        table.some((row) => row.startsWith(`${name} `)),
        name,
      ).toBe(true);
  });
});
