/**
 * Starts a real Skiff instance on loopback against a test database, and a tiny GraphQL client for it.
 */
import { Writable } from "node:stream";
import pino, { type Logger } from "pino";
import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createLogger, type RunningSkiff, type StartOptions, startSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";
import { TEST_SECRET } from "./seed.ts";

/**
 * Starts Skiff on 127.0.0.1 (random port) using database `databaseUrl`; `options` can replace the clock or mailer,
 * `log` the logger (default: LOG_LEVEL from TEST_LOG_LEVEL, silent).
 */
export async function startTestServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: StartOptions = {},
  log?: Logger,
): Promise<RunningSkiff> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    PORT: "0",
    SKIFF_SECRET: TEST_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    SKIFF_BOOTSTRAP: "false",
    // No scheduled health probes (they would keep future jobs queued); health tests turn them on.
    SKIFF_HEALTH_INTERVAL: "0",
    // /metrics beside the API: many servers run at once here (test/server/metrics-port.test.ts tests the listener).
    SKIFF_METRICS_PORT: "main",
    ...env,
  });
  return startSkiff(config, log ?? createLogger(config, false), options);
}

/** A logger whose JSON lines are kept, parsed, in `lines` (pino levels: 40 warn, 50 error, 60 fatal). */
export function captureLogs(level = "info"): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** Response of a GraphQL call over HTTP. */
export interface GqlResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: { code?: string } & Record<string, unknown> }>;
}

/** POSTs a GraphQL operation to `${url}/graphql` with the given credentials. */
export async function gql<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  auth: { apiKey?: string; cookie?: string; header?: "bearer" | "x-api-key" } = {},
): Promise<GqlResponse<T>> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (auth.apiKey) {
    if (auth.header === "x-api-key") headers["x-api-key"] = auth.apiKey;
    else headers.authorization = `Bearer ${auth.apiKey}`;
  }
  if (auth.cookie) headers.cookie = auth.cookie;
  const res = await fetch(`${url}/graphql`, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as GqlResponse<T>;
  return { ...body, status: res.status };
}

/** The database and server of one test file, filled in by {@link useTestServer}'s `beforeAll`. */
export interface TestServer {
  db: TestDatabase;
  skiff: RunningSkiff;
}

/**
 * Registers `beforeAll`/`afterAll` hooks giving the calling test file its own cloned database and a
 * running server on loopback (started with extra `env`); read them from the returned object inside tests.
 */
export function useTestServer(env: Record<string, string> = {}, log?: Logger): TestServer {
  const t = {} as TestServer;
  beforeAll(async () => {
    t.db = await createTestDatabase();
    t.skiff = await startTestServer(t.db.url, env, {}, log);
  });
  afterAll(async () => {
    await t.skiff?.stop();
    await t.db?.drop();
  });
  return t;
}
