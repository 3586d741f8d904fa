/**
 * Pool sizes from the environment: SKIFF_DB_POOL_MAX, SKIFF_AUTH_POOL_MAX and SKIFF_WORKER_POOL_MAX are
 * validated, the instance prints its connection total at start, and under load it never holds more than that.
 */
import { Writable } from "node:stream";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { connectionBudget } from "../../src/server/connections.ts";
import { type RunningSkiff, startSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg, TEST_SECRET } from "../helpers/seed.ts";
import { gql } from "../helpers/server.ts";
import { postAuth, sessionFor } from "../helpers/session.ts";

describe("pool size settings", () => {
  it("rejects sizes that are not whole numbers in range, naming the variable", () => {
    expect(() => loadConfig({ SKIFF_DB_POOL_MAX: "0" })).toThrow(/SKIFF_DB_POOL_MAX/);
    expect(() => loadConfig({ SKIFF_DB_POOL_MAX: "many" })).toThrow(/SKIFF_DB_POOL_MAX/);
    expect(() => loadConfig({ SKIFF_AUTH_POOL_MAX: "2.5" })).toThrow(/SKIFF_AUTH_POOL_MAX/);
    // graphile-worker's LISTEN holds one connection of its pool: one alone would starve its job fetches.
    expect(() => loadConfig({ SKIFF_WORKER_POOL_MAX: "1" })).toThrow(/SKIFF_WORKER_POOL_MAX/);
  });

  it("counts 29 connections per instance by default and follows the settings", () => {
    expect(connectionBudget(loadConfig({}))).toEqual({
      requests: 10,
      auth: 10,
      worker: 6,
      liveness: 1,
      pubsub: 1,
      readiness: 1,
      total: 29,
    });
    const small = loadConfig({
      SKIFF_DB_POOL_MAX: "5",
      SKIFF_AUTH_POOL_MAX: "3",
      SKIFF_WORKER_CONCURRENCY: "8",
      SKIFF_WORKER_POOL_MAX: "4",
    });
    expect(connectionBudget(small).total).toBe(5 + 3 + 4 + 1 + 1 + 1);
    // An API-only instance has no job runner connections.
    expect(connectionBudget(loadConfig({ SKIFF_WORKER: "false" }))).toMatchObject({
      worker: 0,
      liveness: 0,
      total: 22,
    });
  });
});

describe("an instance with small pools", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  const logLines: Array<Record<string, unknown>> = [];
  const env = {
    SKIFF_DB_POOL_MAX: "3",
    SKIFF_AUTH_POOL_MAX: "2",
    SKIFF_WORKER_CONCURRENCY: "2",
    SKIFF_WORKER_POOL_MAX: "3",
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({
      DATABASE_URL: db.url,
      HOST: "127.0.0.1",
      PORT: "0",
      SKIFF_METRICS_PORT: "0",
      SKIFF_SECRET: TEST_SECRET,
      LOG_LEVEL: "info",
      SKIFF_BOOTSTRAP: "false",
      SKIFF_HEALTH_INTERVAL: "0",
      ...env,
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n")) if (line.trim()) logLines.push(JSON.parse(line));
        done();
      },
    });
    skiff = await startSkiff(config, pino({ level: "info" }, sink));
  });
  afterAll(async () => {
    await skiff?.stop();
    await db?.drop();
  });

  it("prints its total at start and never holds more under concurrent requests and sign-ins", async () => {
    const line = logLines.find((l) => String(l.msg).startsWith("database connections per instance"));
    expect(line?.msg).toBe("database connections per instance: at most 11");
    expect(line?.connections).toEqual({
      requests: 3,
      auth: 2,
      worker: 3,
      liveness: 1,
      pubsub: 1,
      readiness: 1,
      total: 11,
    });

    const org = await createOrg(db.knex);
    const cookie = await sessionFor(db.knex, skiff.url, org.owner);
    // The test's own Knex handle (db.knex) is not Skiff's: count every backend of the database but ours.
    const watcher = new pg.Client({ connectionString: db.url, application_name: "pool-watcher" });
    await watcher.connect();
    await db.knex.destroy().catch(() => {});
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { rows } = await watcher.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        );
        most = Math.max(most, rows[0]!.n);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      const results = await Promise.all([
        ...Array.from({ length: 40 }, () =>
          gql(
            skiff.url,
            "{ viewer { user { email } activeOrganization { projects(first: 5) { totalCount } } } }",
            {},
            { apiKey: org.owner.apiKey },
          ),
        ),
        ...Array.from({ length: 20 }, () =>
          fetch(`${skiff.url}/api/auth/get-session`, { headers: { cookie } }).then((r) => ({ status: r.status })),
        ),
        ...Array.from({ length: 5 }, () =>
          postAuth(skiff.url, "/sign-in/email", { email: org.owner.email, password: "wrong-password-1" }).then((r) => ({
            status: r.status,
          })),
        ),
      ]);
      expect(results.slice(0, 60).every((r) => r.status === 200)).toBe(true);
      expect(results.slice(60).every((r) => r.status === 401)).toBe(true);
    } finally {
      watching = false;
      await watch;
      await watcher.end();
    }
    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThanOrEqual(11);
  });
});
