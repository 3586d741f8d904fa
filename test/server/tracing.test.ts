/**
 * OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, `src/main.ts` exports spans of HTTP, GraphQL and pg over
 * OTLP/HTTP to that endpoint (here a loopback receiver); the spans of one request share its trace.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";

interface OtlpSpan {
  traceId: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

const API_KEY = `skiff_tracing_${randomBytes(12).toString("hex")}`;
let db: TestDatabase;
let receiver: http.Server;
const spans: OtlpSpan[] = [];
const paths: string[] = [];
let skiff: SkiffProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8").on("data", (c: string) => {
      text += c;
    });
    req.on("end", () => {
      paths.push(req.url ?? "");
      const body = JSON.parse(text) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
      };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as { port: number };
  skiff = spawnSkiff({
    DATABASE_URL: db.url,
    SKIFF_BOOTSTRAP_API_KEY: API_KEY,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
  });
});
afterAll(async () => {
  if (skiff?.child.exitCode === null && skiff.child.signalCode === null) {
    skiff.child.kill("SIGKILL");
    await skiff.exited;
  }
  receiver?.close();
  await db?.drop();
});

describe("tracing", () => {
  it("exports HTTP, GraphQL and pg spans of a request over OTLP/HTTP", async () => {
    const ready = await skiff.waitForLog((r) => r.msg === "Skiff is ready");
    expect(ready.tracing).toBe(true);
    const res = await fetch(`${ready.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ query: "query Traced { viewer { activeOrganization { name } } }" }),
    });
    expect(res.status).toBe(200);
    skiff.child.kill("SIGTERM"); // the shutdown flushes the spans still buffered
    expect(await skiff.exited).toEqual({ code: 0, signal: null });

    expect(paths.every((p) => p === "/v1/traces")).toBe(true);
    const server = spans.find(
      (s) => s.kind === 2 && s.attributes.some((a) => a.key === "http.target" || a.key === "url.path"),
    );
    const graphqlRequest = spans.find(
      (s) =>
        s.kind === 2 && s.attributes.some((a) => a.value.stringValue === "/graphql" && /target|path|route/.test(a.key)),
    );
    expect(server).toBeDefined();
    expect(graphqlRequest).toBeDefined();
    const trace = spans.filter((s) => s.traceId === graphqlRequest?.traceId).map((s) => s.name);
    // A compiled read (src/server/compiled-reads.ts) has no graphql-js execution span: its one statement is the
    // pg span of the request's trace.
    expect(trace).toEqual(expect.arrayContaining(["graphql.parse", "graphql.validate", "POST"]));
    expect(trace.filter((name) => name.startsWith("pg.query")).length).toBeGreaterThanOrEqual(2);
    console.log(`trace of one GraphQL request: ${trace.join(", ")}`);
  });
});
