/**
 * HTTP correctness and operator visibility: parse errors, credentials that do not verify,
 * introspection switch, x-request-id, Prometheus metrics at /metrics.
 */
import { Writable } from "node:stream";
import { createClient } from "graphql-ws";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { loadConfig } from "../../src/config.ts";
import { type RunningSkiff, startSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createAgentTokenFor, createOrg, TEST_SECRET } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { slowPost } from "../helpers/slow-request.ts";

const METRICS_TOKEN = "metrics-token-for-tests";
let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
/** Every log line of `skiff`, parsed. */
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: db.url,
    HOST: "127.0.0.1",
    PORT: "0",
    SKIFF_SECRET: TEST_SECRET,
    LOG_LEVEL: "info",
    SKIFF_BOOTSTRAP: "false",
    SKIFF_METRICS_TOKEN: METRICS_TOKEN,
    SKIFF_METRICS_PORT: "0",
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) logLines.push(JSON.parse(line));
      done();
    },
  });
  skiff = await startSkiff(config, pino({ level: "info" }, sink));
  org = await createOrg(db.knex);
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${skiff.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions: { code: string } }>;
  };
  return { status: res.status, headers: res.headers, body: json };
}

describe("parse errors", () => {
  it("answer 400 GRAPHQL_PARSE_FAILED, with or without credentials", async () => {
    for (const headers of [{}, { authorization: `Bearer ${org.owner.apiKey}` }] as Array<Record<string, string>>) {
      const res = await post({ query: "{ viewer { " }, headers);
      expect(res.status).toBe(400);
      expect(res.body.errors?.[0]?.extensions.code).toBe("GRAPHQL_PARSE_FAILED");
      expect(res.body.errors?.[0]?.message).toMatch(/^Syntax Error/);
    }
  });

  it("the token limit is a parse failure too (400), on HTTP and WebSocket", async () => {
    const query = `{ ${Array.from({ length: 5100 }, () => "__typename").join(" ")} }`;
    const res = await post({ query }, { authorization: `Bearer ${org.owner.apiKey}` });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.extensions.code).toBe("GRAPHQL_PARSE_FAILED");
    // One wording whichever check meets the limit (graphql-js's own parser says "more that").
    expect(res.body.errors?.[0]?.message).toMatch(/contains more than 5000 tokens/);
    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe({ query }, { next: () => {}, error: resolve, complete: () => resolve(null) });
    });
    expect(JSON.stringify(errors)).toMatch(/contains more than 5000 tokens/);
    await client.dispose();
  });
});

describe("credentials that do not verify", () => {
  it("answer 401 whatever the operation; absent credentials stay anonymous", async () => {
    const anonymous = await post({ query: "{ __typename }" });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ data: { __typename: "Query" } });

    const presented: Array<Record<string, string>> = [
      { authorization: "Bearer skiff_not-a-real-key" },
      { "x-api-key": "skiff_not-a-real-key" },
      { authorization: "Basic dXNlcjpwYXNz" },
      { cookie: "theme=dark; skiff.session_token=forged.value" },
    ];
    for (const headers of presented) {
      const res = await post({ query: "{ __typename }" }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body.errors?.[0]?.extensions.code).toBe("UNAUTHENTICATED");
      expect(res.body.data).toBeUndefined();
    }
    // A cookie that is not the session's is no credential.
    expect((await post({ query: "{ __typename }" }, { cookie: "theme=dark" })).status).toBe(200);
  });

  it("an agent token on /graphql is refused with 401, also for { __typename }", async () => {
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    for (const headers of [{ authorization: `Bearer ${token}` }, { "x-api-key": token }] as Array<
      Record<string, string>
    >) {
      const res = await post({ query: "{ __typename }" }, headers);
      expect(res.status).toBe(401);
      expect(res.body.errors?.[0]?.extensions.code).toBe("UNAUTHENTICATED");
    }
  });
});

describe("introspection", () => {
  const INTROSPECT = "{ __schema { queryType { name } } }";

  it("is on by default", async () => {
    const res = await post({ query: INTROSPECT });
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: "Query" } } } });
  });

  it("SKIFF_INTROSPECTION=false turns it off", async () => {
    const other = await startTestServer(db.url, { SKIFF_INTROSPECTION: "false" });
    try {
      const res = await fetch(`${other.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: INTROSPECT }),
      });
      const body = (await res.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(res.status).toBe(400);
      expect(body.errors[0]?.extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
      // The message names the setting, not a library's option.
      expect(body.errors[0]?.message).toContain("SKIFF_INTROSPECTION=false");
      expect(body.errors[0]?.message).not.toContain("ApolloServer");
    } finally {
      await other.stop();
    }
  });
});

describe("x-request-id", () => {
  it("is honoured when sent, generated otherwise, echoed on every response and logged as reqId", async () => {
    const sent = "trace-abc.123:XYZ";
    const ok = await post({ query: "{ __typename }" }, { "x-request-id": sent });
    expect(ok.headers.get("x-request-id")).toBe(sent);

    const notFound = await fetch(`${skiff.url}/no/such/path`, { headers: { "x-request-id": "nf-1" } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("x-request-id")).toBe("nf-1");

    const bad = await post({ query: "{ viewer {" }, { "x-request-id": "bad-1" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-request-id")).toBe("bad-1");

    const generated = await fetch(`${skiff.url}/healthz`);
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    // Not a plausible id (spaces, newline, too long): replaced, never logged as sent.
    for (const unsafe of ["has space", "x".repeat(200)]) {
      const res = await fetch(`${skiff.url}/healthz`, { headers: { "x-request-id": unsafe } });
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }

    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = logLines.filter((l) => l.reqId === sent);
    // One line per request at info, once it is answered (request-log.ts): the request, its status and duration.
    expect(logged.map((l) => l.msg)).toEqual(["request completed"]);
    expect(logged[0]).toMatchObject({ req: { method: "POST", url: "/graphql" }, res: { statusCode: 200 } });
    expect(logged[0]!.responseTime).toEqual(expect.any(Number));
    // A path that is no route: the request's one line, with its 404.
    const notFoundLines = logLines.filter((l) => l.reqId === "nf-1");
    expect(notFoundLines.map((l) => l.msg)).toEqual(["request completed"]);
    expect(notFoundLines[0]).toMatchObject({ req: { method: "GET", url: "/no/such/path" }, res: { statusCode: 404 } });
  });
});

describe("/metrics", () => {
  it("needs the bearer token when SKIFF_METRICS_TOKEN is set", async () => {
    expect((await fetch(skiff.metricsUrl)).status).toBe(401);
    expect((await fetch(skiff.metricsUrl, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  });

  it("shows HTTP and GraphQL durations, open subscriptions, pool usage and process defaults", async () => {
    // The registry is the process's (shared with every server and test file this process runs): counts are read
    // as the increase over a scrape taken first.
    const count = (text: string, series: string) =>
      Number(
        text
          .split("\n")
          .find((l) => l.startsWith(`${series} `))
          ?.slice(series.length + 1) ?? 0,
      );
    const SITE_IMPORT_GET =
      'skiff_http_request_duration_seconds_count{method="GET",route="/api/site-import",status_code="200"}';
    const ORG_NAMES =
      'skiff_graphql_operation_duration_seconds_count{operation_name="OrgNames",operation_type="query",outcome="success"}';
    const before = await (
      await fetch(skiff.metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    await gql(skiff.url, "query OrgNames { organizations { name } }", {}, { apiKey: org.owner.apiKey });
    await gql(skiff.url, "query Broken { nope }", {}, { apiKey: org.owner.apiKey });
    await fetch(`${skiff.url}/api/site-import?limit=1`, { headers: { "x-api-key": org.owner.apiKey } });

    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const stop = client.subscribe(
      { query: "subscription { siteImportUpdated { importId status } }" },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    const scrape = async () => {
      const res = await fetch(skiff.metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      return res.text();
    };
    await expect.poll(scrape).toMatch(/^skiff_graphql_subscriptions_open 1$/m);

    const text = await scrape();
    expect(text).toMatch(
      /^skiff_http_request_duration_seconds_count\{method="POST",route="\/graphql",status_code="200"\} \d+/m,
    );
    expect(count(text, SITE_IMPORT_GET) - count(before, SITE_IMPORT_GET)).toBe(1);
    // Operation names are labels up to a process-wide cap (200), shared by every file this worker ran before: past
    // it, a new name counts as `other`.
    const named = (t: string) => count(t, ORG_NAMES) + count(t, ORG_NAMES.replace('"OrgNames"', '"other"'));
    expect(named(text) - named(before)).toBe(1);
    expect(text).toMatch(
      /^skiff_graphql_operation_duration_seconds_count\{operation_name="unknown",operation_type="unknown",outcome="invalid"\} \d+$/m,
    );
    expect(text).toMatch(/^skiff_db_pool_connections\{state="used"\} \d+$/m);
    expect(text).toMatch(/^skiff_db_pool_connections\{state="free"\} \d+$/m);
    expect(text).toMatch(/^skiff_db_pool_connections\{state="pending"\} \d+$/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);

    stop();
    await expect.poll(scrape).toMatch(/^skiff_graphql_subscriptions_open 0$/m);
    await client.dispose();
  });
});

describe("shutdown timeout", () => {
  it("answers what is still unanswered after SKIFF_SHUTDOWN_TIMEOUT with 503, then finishes the shutdown", async () => {
    const other = await startTestServer(db.url, { SKIFF_SHUTDOWN_TIMEOUT: "0.5" });
    const stuck = slowPost(`${other.url}/graphql`, JSON.stringify({ query: "{ __typename }" }));
    await stuck.connected;
    await new Promise((resolve) => setTimeout(resolve, 200)); // the server has the request
    expect(other.requests.inFlight).toBe(1);
    const started = Date.now();
    await other.stop();
    const elapsed = Date.now() - started;
    // A request whose body is still arriving at the deadline is answered, not reset (src/server/drain.ts).
    expect(await stuck.result).toMatchObject({ status: 503 });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(5000);
    expect((await fetch(`${other.url}/healthz`).catch((e: Error) => e)) instanceof Error).toBe(true);
  });
});
