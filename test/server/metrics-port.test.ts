/**
 * /metrics on a listener of its own (SKIFF_METRICS_PORT): the API's port, the one the public Service and routes
 * expose, answers 404 for /metrics, while the metrics listener serves the API's request metrics (behind
 * SKIFF_METRICS_TOKEN when set) and nothing else; `main` puts /metrics back on the API's port.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { useTestServer } from "../helpers/server.ts";

const TOKEN = "metrics-port-token-for-tests";
const t = useTestServer({ SKIFF_METRICS_PORT: "0", SKIFF_METRICS_TOKEN: TOKEN });

describe("the metrics listener", () => {
  it("serves /metrics on its own port, not on the API's", async () => {
    expect((await fetch(`${t.skiff.url}/healthz`)).status).toBe(200);
    expect(new URL(t.skiff.metricsUrl).port).not.toBe(new URL(t.skiff.url).port);
    expect((await fetch(`${t.skiff.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const res = await fetch(t.skiff.metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    // The API's requests are counted there (the /healthz above), the listener's own are not routes of the API.
    expect(await res.text()).toMatch(/^skiff_http_request_duration_seconds_count\{[^}]*route="\/healthz"/m);
    expect((await fetch(t.skiff.metricsUrl)).status).toBe(401);
    expect((await fetch(new URL("/graphql", t.skiff.metricsUrl))).status).toBe(404);
  });
});

describe("SKIFF_METRICS_PORT", () => {
  it("takes a port, 0 or `main`, 9464 by default", () => {
    expect(loadConfig({}).SKIFF_METRICS_PORT).toBe(9464);
    expect(loadConfig({ SKIFF_METRICS_PORT: "0" }).SKIFF_METRICS_PORT).toBe(0);
    expect(loadConfig({ SKIFF_METRICS_PORT: "main" }).SKIFF_METRICS_PORT).toBe("main");
    for (const bad of ["70000", "-1", "metrics", "1.5"]) {
      expect(() => loadConfig({ SKIFF_METRICS_PORT: bad })).toThrow(/SKIFF_METRICS_PORT/);
    }
  });
});
