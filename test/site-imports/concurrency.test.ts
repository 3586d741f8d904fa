/**
 * Plan quotas and concurrency (spec: Errors — quota message; Import status — retry without duplicates):
 * quota exhaustion fails the import at the step that would exceed it with a message naming the quota; racing
 * imports cannot both take the last slot; concurrent same-name imports leave exactly one project; concurrent
 * retries of one record run it once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg, createPlan, createProjects, createRegistry } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { countResources, dockerRequest, importReadyOrg, rest, slowInsertsWhen } from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let second: RunningSkiff;
beforeAll(async () => {
  db = await createTestDatabase();
  [skiff, second] = await Promise.all([startTestServer(db.url), startTestServer(db.url)]);
  // Names containing "slow-" wait 300 ms before the project row is inserted: every racer passes the up-front
  // checks first, and the unique constraint / quota lock alone decides.
  await slowInsertsWhen(db.knex, "projects", "name", "slow-", 0.3);
  await slowInsertsWhen(db.knex, "domains", "host", "slow-", 0.3);
});
afterAll(async () => {
  await second?.stop();
  await skiff?.stop();
  await db?.drop();
});

type Result = { importId: string; status: string; errorStep?: string; errorMessage?: string };

const importVia = (url: string, apiKey: string, body: unknown) =>
  rest<Result>(url, "POST", "/api/site-import", { apiKey }, body);

describe("plan quotas", () => {
  it.each([
    ["projects", { projects: 1 }, "project_creation", {}],
    ["applications", { applications: 1 }, "application_creation", {}],
    [
      "databases",
      { databases: 0 },
      "database_creation",
      { database: { type: "postgres", name: "d", user: "u", password: "p" } },
    ],
    ["domains", { domains: 0 }, "domain_creation", { domain: "quota.example.test" }],
  ] as const)("fails at the step that would exceed the %s quota, naming it", async (quota, limits, step, extra) => {
    const plan = await createPlan(db.knex, limits);
    const org = await importReadyOrg(db.knex, plan);
    await createProjects(db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
    const before = await countResources(db.knex, org.organizationId);
    const res = await importVia(skiff.url, org.owner.apiKey, dockerRequest(org.organizationId, extra));
    expect(res.status).toBe(422);
    const limit = Object.values(limits)[0];
    expect(res.body).toMatchObject({
      status: "failed",
      errorStep: step,
      errorMessage: `Plan quota reached: ${quota} (${limit} of ${limit} on plan "${plan}")`,
    });
    expect(await countResources(db.knex, org.organizationId)).toEqual({ ...before, imports: 1 });
  });

  it("lets only one of many racing imports take the last project slot (across two instances)", async () => {
    const plan = await createPlan(db.knex, { projects: 1 });
    const org = await importReadyOrg(db.knex, plan);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        importVia(
          i % 2 ? second.url : skiff.url,
          org.owner.apiKey,
          dockerRequest(org.organizationId, { name: `slow-race-${i}` }),
        ),
      ),
    );
    expect(results.filter((r) => r.body.status === "success")).toHaveLength(1);
    for (const r of results.filter((r) => r.body.status !== "success")) {
      expect(r.body).toMatchObject({ status: "failed", errorStep: "project_creation" });
      expect(r.body.errorMessage).toContain("Plan quota reached: projects");
    }
    expect((await countResources(db.knex, org.organizationId)).projects).toBe(1);
  });

  it("enforces a later step's quota inside the run: one domain slot, two racing imports", async () => {
    const plan = await createPlan(db.knex, { domains: 1 });
    const org = await importReadyOrg(db.knex, plan);
    const results = await Promise.all(
      [skiff.url, second.url].map((url, i) =>
        importVia(
          url,
          org.owner.apiKey,
          dockerRequest(org.organizationId, { domain: `slow-slot-${i}-${Date.now()}.example.test` }),
        ),
      ),
    );
    const loser = results.find((r) => r.body.status !== "success");
    expect(results.filter((r) => r.body.status === "success")).toHaveLength(1);
    expect(loser?.body).toMatchObject({ status: "partial", errorStep: "domain_creation" });
    expect(loser?.body.errorMessage).toContain("Plan quota reached: domains (1 of 1");
    expect((await countResources(db.knex, org.organizationId)).domains).toBe(1);
  });
});

describe("concurrent imports and retries", () => {
  it("of many same-name imports in one organization exactly one succeeds; the others fail at project_creation", async () => {
    const org = await importReadyOrg(db.knex);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        importVia(
          i % 2 ? second.url : skiff.url,
          org.owner.apiKey,
          dockerRequest(org.organizationId, { name: "slow-same-name" }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200 && r.body.status === "success")).toHaveLength(1);
    for (const r of results.filter((r) => r.body.status !== "success")) {
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({
        status: "failed",
        errorStep: "project_creation",
        errorMessage: 'A project named "slow-same-name" already exists in this organization',
      });
    }
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 1,
      applications: 1,
      imports: 6,
    });
  });

  it("runs a record once when retried concurrently; every retry answers that run's outcome; no duplicate record", async () => {
    const org = await createOrg(db.knex);
    const failed = await importVia(skiff.url, org.owner.apiKey, dockerRequest(org.organizationId));
    expect(failed.body).toMatchObject({ status: "failed", errorStep: "application_creation" });
    await createRegistry(db.knex, org.organizationId);
    const RETRY = "mutation($id: ID!) { retrySiteImport(id: $id) { importId status } }";
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gql<{ retrySiteImport: Result }>(
          i % 2 ? second.url : skiff.url,
          RETRY,
          { id: failed.body.importId },
          { apiKey: org.owner.apiKey },
        ),
      ),
    );
    // One claims the record and runs it; the others find it pending and wait for that run (idempotent). A retry
    // that arrives after the run ended finds a success, which has no retry: CONFLICT.
    const ok = results.filter((r) => r.data?.retrySiteImport);
    expect(ok.length).toBeGreaterThan(1);
    for (const r of ok) {
      expect(r.data!.retrySiteImport).toEqual({ importId: failed.body.importId, status: "success" });
    }
    for (const r of results.filter((r) => !r.data?.retrySiteImport)) {
      expect(r.errors?.[0]?.message).toContain("has status success");
    }
    const record = await db.knex("site_imports").where({ id: failed.body.importId }).first();
    expect(record).toMatchObject({ status: "success", attempts: 2 });
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 1,
      applications: 1,
      deployments: 1,
      imports: 1,
    });
  });
});
