/**
 * Durable imports, with real `src/main.ts` processes and real signals. A step is stalled
 * deterministically by a PostgreSQL table lock the test holds (`lock table … in exclusive mode`: reads go on,
 * the step's INSERT waits), then:
 * - Skiff is killed with SIGKILL mid-step; a new process resumes the run (the job-liveness sweep frees the dead
 *   runner's job) and the import succeeds with every resource exactly once; the per-step events are seen in
 *   order by a graphql-ws client;
 * - Skiff is killed and the user's inputs become invalid meanwhile (registry deleted): the resumed run ends
 *   `partial` at `application_creation` with the interrupted message; a retry succeeds;
 * - PostgreSQL becomes unreachable mid-step (a TCP proxy in front of it is closed, then reopened): the run
 *   resumes by itself once the database is back;
 * - a run longer than SKIFF_IMPORT_WAIT_MS answers 202 with the pending record, and ends later.
 * Never is a record left `pending`.
 */
import { type Client, createClient } from "graphql-ws";
import type { Knex } from "knex";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

import WebSocket from "ws";
import { INTERRUPTED_MESSAGE } from "../../src/modules/site-imports/site-import.run.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { createOrg, createProjects, createRegistry } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";
import {
  countResources,
  dockerRequest,
  FULL_IMPORT_COUNTS,
  importReadyOrg,
  rest,
  stallTable,
} from "./import-helpers.ts";

let db: TestDatabase;
const processes: SkiffProcess[] = [];
const clients: Client[] = [];
/** Open lock transactions, rolled back after each test whatever happened (a database cannot be dropped otherwise). */
const locks: Array<() => Promise<void>> = [];

/** Starts `src/main.ts` on `databaseUrl`; resolves with its base URL once it listens. */
async function start(databaseUrl = db.url): Promise<string> {
  const p = spawnSkiff({ DATABASE_URL: databaseUrl, SKIFF_BOOTSTRAP: "false", SKIFF_HEALTH_INTERVAL: "0" });
  processes.push(p);
  const listening = await p.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 60_000);
  return String(listening.msg).replace("Server listening at ", "");
}

/** SIGKILLs every process still running and waits for the exits. */
async function killAll(): Promise<void> {
  await Promise.all(locks.splice(0).map((release) => release().catch(() => {})));
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  for (const p of processes.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill("SIGKILL");
      await p.exited;
    }
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(killAll);
afterAll(async () => {
  await killAll();
  await db?.drop();
});

/** Holds an EXCLUSIVE lock on `table` in an open transaction until `release()`: the step inserting there waits. */
async function stall(table: string, knex: Knex = db.knex): Promise<{ release(): Promise<void> }> {
  return stallTable(knex, table, locks);
}

/**
 * Holds `host` in an open transaction (another organization's domain renamed to it, uncommitted) until
 * `release()`: the domain step's INSERT of that host waits for the transaction's outcome (unique index).
 */
async function stallDomain(host: string): Promise<{ release(): Promise<void> }> {
  const other = await createOrg(db.knex);
  await createProjects(db.knex, other.organizationId, 1, { applicationsPerEnvironment: 1, domainsPerApplication: 1 });
  const trx = await db.knex.transaction();
  await trx("domains").where({ organization_id: other.organizationId }).update({ host });
  const release = () => (trx.isCompleted() ? Promise.resolve() : trx.rollback().then(() => undefined));
  locks.push(release);
  return { release };
}

/** Resolves once a session of the test database waits for a lock (the stalled step is mid-flight). */
async function stalled(timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.knex.raw(
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if (rows.length) return;
    if (Date.now() > deadline) throw new Error(`no session waited for a lock within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Row = Record<string, unknown> & { status: string; steps: Record<string, string> };

/** The record once it is no longer pending (polled); fails after `timeoutMs`. */
async function settled(knex: Knex, id: string, timeoutMs = 90_000): Promise<Row> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (await knex("site_imports").where({ id }).first()) as Row;
    if (row.status !== "pending") return row;
    if (Date.now() > deadline) throw new Error(`import ${id} still pending after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Fires `POST /api/site-import` and returns the import id once its record exists (the request may never answer). */
async function startImport(url: string, knex: Knex, apiKey: string, body: Record<string, unknown>): Promise<string> {
  const answer = rest(url, "POST", "/api/site-import", { apiKey }, body).catch((error: unknown) => ({ error }));
  void answer;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const row = await knex("site_imports").where({ name: body.name }).first("id");
    if (row) return row.id as string;
    if (Date.now() > deadline) throw new Error("the import record was not created");
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Update = { status: string; siteImport: { steps: Array<{ step: string; status: string }> } | null };

/** A graphql-ws subscription to one import on `url`. */
function watch(url: string, apiKey: string, id: string | null) {
  const client = createClient({
    url: `${url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${apiKey}` },
  });
  clients.push(client);
  const updates: Update[] = [];
  const errors: unknown[] = [];
  client.subscribe<{ siteImportUpdated: Update }>(
    {
      query: `subscription($id: ID) { siteImportUpdated(id: $id) { status siteImport { steps { step status } } } }`,
      variables: { id },
    },
    {
      next: (msg) => {
        if (msg.errors) errors.push(...msg.errors);
        if (msg.data) updates.push(msg.data.siteImportUpdated);
      },
      error: () => {},
      complete: () => {},
    },
  );
  return {
    updates,
    errors,
    async until(predicate: (u: Update[]) => boolean, timeoutMs = 60_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(updates)) {
        if (Date.now() > deadline) throw new Error(`got ${JSON.stringify(updates)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}

/** Steps marked done in an update's record. */
const doneSteps = (u: Update) => (u.siteImport?.steps ?? []).filter((s) => s.status === "done").map((s) => s.step);

const FULL = {
  database: { type: "postgres", name: "shop", user: "shop", password: "s3cret" },
  envVars: { APP_ENV: "production" },
};

describe("an import survives a crash of Skiff", () => {
  it("SIGKILL mid-step: a new process resumes the run; every resource exists once; steps are published in order", async () => {
    const org = await importReadyOrg(db.knex);
    const first = await start();
    const events = watch(first, org.owner.apiKey, null);
    await new Promise((r) => setTimeout(r, 500)); // the subscription is set up
    const name = `crash-${Date.now()}`;
    const lock = await stallDomain(`${name}.example.test`);
    const id = await startImport(
      first,
      db.knex,
      org.owner.apiKey,
      dockerRequest(org.organizationId, { ...FULL, name, domain: `${name}.example.test` }),
    );
    await stalled();
    // Queued, then project, database and application committed: four `pending` events, progress visible.
    await events.until((u) => u.length >= 4);
    expect(events.errors).toEqual([]);
    expect(events.updates.map((u) => u.status)).toEqual(["pending", "pending", "pending", "pending"]);
    const counts = events.updates.map((u) => doneSteps(u).length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b)); // progress never goes back
    expect(doneSteps(events.updates[3]!)).toEqual(["project_creation", "database_creation", "application_creation"]);
    const mid = (await db.knex("site_imports").where({ id }).first()) as Row;
    expect(mid).toMatchObject({ status: "pending", domainId: null });
    expect(mid.steps).toMatchObject({ application_creation: "done", domain_creation: "pending" });

    processes[0]!.child.kill("SIGKILL");
    await processes[0]!.exited;
    await lock.release();
    const started = Date.now();
    const second = await start();
    const row = await settled(db.knex, id);
    console.log(`resumed after SIGKILL: import ended ${Date.now() - started} ms after the restart began`);
    expect(row).toMatchObject({ status: "success", errorStep: null, errorMessage: null, attempts: 1 });
    expect(Object.values(row.steps)).toEqual(["done", "done", "done", "done", "done"]);
    expect(await countResources(db.knex, org.organizationId)).toEqual(FULL_IMPORT_COUNTS);
    const record = await rest<Row>(second, "GET", `/api/site-import/${id}`, { apiKey: org.owner.apiKey });
    expect(record.body).toMatchObject({ status: "success", domainId: row.domainId });
  });

  it("SIGKILL, then the inputs become invalid: the resumed run ends partial with the interrupted message; retry works", async () => {
    const org = await importReadyOrg(db.knex);
    const first = await start();
    const lock = await stall("environment_variables");
    const name = `invalid-${Date.now()}`;
    const id = await startImport(
      first,
      db.knex,
      org.owner.apiKey,
      dockerRequest(org.organizationId, { ...FULL, name }),
    );
    await stalled();
    processes[0]!.child.kill("SIGKILL");
    await processes[0]!.exited;
    await db.knex("container_registries").where({ organization_id: org.organizationId }).delete();
    await lock.release();

    const second = await start();
    const row = await settled(db.knex, id);
    expect(row).toMatchObject({ status: "partial", errorStep: "application_creation" });
    expect(row.errorMessage).toMatch(
      new RegExp(`^${INTERRUPTED_MESSAGE.replace(/[()]/g, "\\$&")}: No container registry`),
    );
    expect(row.steps).toEqual({
      project_creation: "done",
      database_creation: "done",
      application_creation: "failed",
      domain_creation: "skipped",
      deployment: "pending",
    });
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 1,
      databases: 1,
      applications: 0,
    });

    await createRegistry(db.knex, org.organizationId);
    const retried = await gql<{ retrySiteImport: { status: string; siteImport: { steps: unknown[] } } }>(
      second,
      "mutation($id: ID!) { retrySiteImport(id: $id) { status siteImport { steps { step status } } } }",
      { id },
      { apiKey: org.owner.apiKey },
    );
    expect(retried.errors).toBeUndefined();
    expect(retried.data?.retrySiteImport.status).toBe("success");
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 1,
      databases: 1,
      applications: 1,
      deployments: 1,
      imports: 1,
    });
  });
});

describe("an import survives a PostgreSQL outage", () => {
  let proxy: TcpProxy;
  afterAll(async () => {
    if (proxy?.listening) await proxy.close();
  });

  it("the database goes away mid-step and comes back: the run resumes and succeeds", async () => {
    const org = await importReadyOrg(db.knex);
    proxy = tcpProxy(db.url);
    await proxy.open();
    const url = await start(proxy.url(db.url));
    const name = `outage-${Date.now()}`;
    const lock = await stallDomain(`${name}.example.test`);
    const answer = rest<Row>(
      url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { ...FULL, name, domain: `${name}.example.test` }),
    );
    await stalled();
    await proxy.close();
    await lock.release();
    await new Promise((r) => setTimeout(r, 2_000));
    const [row] = await db.knex("site_imports").where({ name });
    expect(row.status).toBe("pending");
    const back = Date.now();
    await proxy.open();
    const ended = await settled(db.knex, row.id as string).catch((error) => {
      console.log(processes[0]!.stdout().slice(-6000));
      throw error;
    });
    console.log(`PostgreSQL outage: import ended ${Date.now() - back} ms after the database came back`);
    expect(ended).toMatchObject({ status: "success", errorStep: null });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ importId: row.id, status: "success" });
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 1,
      applications: 1,
      domains: 1,
      deployments: 1,
    });
  });
});

describe("the wait limit", () => {
  it("answers 202 with the pending record when the run outlasts SKIFF_IMPORT_WAIT_MS; the run ends later", async () => {
    const own = await createTestDatabase();
    const skiff = await startTestServer(own.url, { SKIFF_IMPORT_WAIT_MS: "1000" });
    const lock = await stall("environment_variables", own.knex);
    try {
      const org = await importReadyOrg(own.knex);
      const res = await rest<Row>(
        skiff.url,
        "POST",
        "/api/site-import",
        { apiKey: org.owner.apiKey },
        dockerRequest(org.organizationId, { envVars: { APP_ENV: "production" } }),
      );
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ status: "pending", importId: expect.stringMatching(/^imp_/) });
      await lock.release();
      expect(await settled(own.knex, res.body.importId as string, 30_000)).toMatchObject({ status: "success" });
    } finally {
      await lock.release();
      await skiff.stop();
      await own.drop();
    }
  });
});

describe("a run that can no longer resume", () => {
  it("is ended partial with the interrupted message by imports.expire-interrupted (every minute); retry works", async () => {
    const own = await createTestDatabase();
    const skiff = await startTestServer(own.url);
    try {
      const org = await importReadyOrg(own.knex);
      const done = await rest<Row>(
        skiff.url,
        "POST",
        "/api/site-import",
        { apiKey: org.owner.apiKey },
        dockerRequest(org.organizationId),
      );
      expect(done.body.status).toBe("success");
      const id = done.body.importId as string;
      // As a run whose every attempt was used up leaves it: pending after the project step, no job left.
      await own
        .knex("site_imports")
        .where({ id })
        .update({
          status: "pending",
          finished_at: null,
          deployment_id: null,
          steps: JSON.stringify({
            project_creation: "done",
            database_creation: "skipped",
            application_creation: "pending",
            domain_creation: "skipped",
            deployment: "pending",
          }),
        });
      const row = await settled(own.knex, id, 80_000);
      expect(row).toMatchObject({ status: "partial", errorStep: "application_creation", finishedAt: expect.any(Date) });
      expect(row.errorMessage).toBe(
        `${INTERRUPTED_MESSAGE} (stopped during application_creation); retry or delete the import`,
      );
      expect(row.steps).toMatchObject({ project_creation: "done", application_creation: "failed" });
      const retried = await gql<{ retrySiteImport: { status: string } }>(
        skiff.url,
        "mutation($id: ID!) { retrySiteImport(id: $id) { status } }",
        { id },
        { apiKey: org.owner.apiKey },
      );
      expect(retried.data?.retrySiteImport.status).toBe("success");
      expect(await countResources(own.knex, org.organizationId)).toMatchObject({ projects: 1, applications: 1 });
    } finally {
      await skiff.stop();
      await own.drop();
    }
  });
});
