/**
 * /metrics on a fresh instance: every Skiff metric is registered at start and the label values
 * known in advance are exported at 0 by the very first scrape — outbound outcomes, job tasks (failures, durations,
 * queue depth), refused and REST GraphQL operations — so `rate()` and absent-alerts work from the start. The sweep
 * reads what the process registered (the scrape's `# TYPE` lines; a process of its own, since the registry is
 * the process's): every `skiff_*` metric must have samples on the first scrape, except the HTTP
 * histogram (its status codes are an outcome, not known in advance).
 */
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTBOUND_OUTCOMES } from "../../src/http/outbound-errors.ts";
import { moduleJobs, restRoutes } from "../../src/modules/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";

/** Metrics whose label values are not known before the first event. */
const NOT_KNOWN_IN_ADVANCE = new Set(["skiff_http_request_duration_seconds"]);

// A process of its own: the metrics registry is the process's, and this one has served nothing before.
let db: TestDatabase;
let skiff: SkiffProcess;
let url: string;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = spawnSkiff({ DATABASE_URL: db.url, SKIFF_WORKER: "true", SKIFF_BOOTSTRAP: "false" });
  const listening = await skiff.waitForLog((r) => String(r.msg).startsWith("Server listening at"));
  url = String(listening.msg).replace("Server listening at ", "");
  // Ready: migrated, job runner started (its metrics are registered then). /readyz counts in no skiff_* metric but
  // the HTTP histogram, which the test leaves out.
  for (let tries = 0; (await fetch(`${url}/readyz`)).status !== 200; tries++) {
    if (tries > 600) throw new Error("not ready within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
afterAll(async () => {
  if (skiff?.child.exitCode === null && skiff.child.signalCode === null) {
    skiff.child.kill("SIGTERM");
    await skiff.exited;
  }
  await db?.drop();
});

describe("/metrics on a fresh instance", () => {
  it("has every skiff_* metric, with the known label values at 0, on the first scrape", async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
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

    // The sweep: every skiff_* metric the process registered (its `# TYPE` lines) has samples in the first scrape.
    const table: string[] = [];
    for (const [, name, type] of text.matchAll(/^# TYPE (skiff_\w+) (\w+)$/gm) as Iterable<string[]>) {
      const labelSets = new Set(
        text
          .split("\n")
          .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name}_`) || l.startsWith(`${name} `))
          .map((l) =>
            (l.match(/\{([^}]*)\}/)?.[1] ?? "")
              .split(",")
              .filter((label) => !label.startsWith("le="))
              .join(","),
          ),
      );
      table.push(`${name} (${type}): ${labelSets.size} series`);
      if (NOT_KNOWN_IN_ADVANCE.has(name!)) continue;
      expect(text, name).toMatch(new RegExp(`^${name}(_count|_total)?(\\{[^}]*\\})? \\d`, "m"));
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
      "skiff_webhook_attempts_total",
      "skiff_webhook_attempts_in_flight",
      "skiff_webhook_deliveries_queued",
    ])
      expect(
        table.some((row) => row.startsWith(`${name} `)),
        name,
      ).toBe(true);
  });
});
