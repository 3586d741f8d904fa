/**
 * SKIFF_WORKLOAD_RESOURCES takes only the quantities the renderer can sum into tenant quotas (CPU in millicores or
 * cores, memory in Mi or Gi): anything else stops `node src/main.ts` at start with the parser's message, and what it
 * takes renders (the tenant's ResourceQuota and LimitRange) with the same parser.
 */
import type { ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { resourcesForPlan } from "../../src/modules/deployments/deployment.manifests.ts";
import { renderTenant } from "../../src/modules/deployments/tenant.manifests.ts";
import { spawnMain } from "../helpers/process.ts";

/** Waits for `child` to exit (killed after 30 s); @returns its exit code and stderr. */
async function outcome(child: ChildProcess): Promise<{ code: number | null; err: string }> {
  let err = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, err };
}

describe("SKIFF_WORKLOAD_RESOURCES", () => {
  it("a memory quantity in G and a CPU quantity in k stop the start with the parser's message", async () => {
    const { code, err } = await outcome(
      spawnMain({
        SKIFF_WORKLOAD_RESOURCES: JSON.stringify({
          pro: { app: { limits: { memory: "1G" } } },
          "*": { build: { requests: { cpu: "1k" } } },
        }),
      }),
    );
    expect(code, err).toBe(1);
    expect(err).toMatch(/^ {2}SKIFF_WORKLOAD_RESOURCES: /m);
    expect(err).toContain("pro.app.limits.memory: unsupported memory quantity 1G (use Mi or Gi");
    expect(err).toContain("*.build.requests.cpu: unsupported CPU quantity 1k");
  });

  it("refuses what the renderer cannot sum and takes what it can, rendering the tenant's quotas", () => {
    for (const bad of [{ memory: "512M" }, { memory: "0.3Mi" }, { cpu: "0.0001" }, { cpu: "2.5m" }]) {
      expect(() =>
        loadConfig({
          SKIFF_SECRET: "x".repeat(32),
          SKIFF_WORKLOAD_RESOURCES: JSON.stringify({ "*": { app: { limits: bad } } }),
        }),
      ).toThrow(/unsupported (memory|CPU) quantity/);
    }
    const config = loadConfig({
      SKIFF_SECRET: "x".repeat(32),
      SKIFF_WORKLOAD_RESOURCES: JSON.stringify({ pro: { app: { limits: { cpu: "1.5", memory: "1.5Gi" } } } }),
    });
    const resources = resourcesForPlan("pro", config.SKIFF_WORKLOAD_RESOURCES);
    const tenant = renderTenant(
      "org_01h0000000000000000000000",
      {
        ingressNamespace: "ingress",
        clusterCidrs: [],
        serviceAccount: { namespace: "skiff", name: "skiff" },
        clusterRole: "skiff-tenant",
      },
      { applications: 2, databases: 1 },
      resources,
    );
    const quota = tenant.find((m) => m.kind === "ResourceQuota") as unknown as {
      spec: { hard: Record<string, string> };
    };
    // 2 applications × 2 pods × 1536Mi + 1 database × 1Gi.
    expect(quota.spec.hard["limits.memory"]).toBe(`${2 * 2 * 1536 + 1024}Mi`);
    expect(quota.spec.hard["limits.cpu"]).toBe(`${2 * 2 * 1500 + 1000}m`);
  });
});
