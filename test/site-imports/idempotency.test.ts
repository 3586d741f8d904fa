/**
 * Idempotent import requests (docs/site-imports.md, "Idempotent requests"): the `Idempotency-Key` header of
 * `POST /api/site-import`, the `idempotencyKey` argument of `importSite` and of the procedure `siteImport.import`.
 * Two instances on one database: the same key and body answer the same import, sequentially and with 20 requests at
 * once spread over both instances (one record, one run, equal answers); a different body answers 422
 * IDEMPOTENCY_KEY_REUSED naming the key; an expired key is free again and pruned; a repeat while the run is pending
 * gets the same pending answer; a Skiff killed mid-import and started again answers the repeat with the same import,
 * which ends once. Without a key nothing changes.
 */
import type { Knex } from "knex";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pruneIdempotencyKeys } from "../../src/modules/site-imports/site-import.idempotency.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import {
  countResources,
  dockerRequest,
  FULL_IMPORT_COUNTS,
  importReadyOrg,
  type RestResult,
  stallTable,
} from "./import-helpers.ts";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let db: TestDatabase;
let one: RunningSkiff;
let two: RunningSkiff;
const processes: SkiffProcess[] = [];
const locks: Array<() => Promise<void>> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  [one, two] = await Promise.all([startTestServer(db.url), startTestServer(db.url)]);
});
afterEach(async () => {
  await Promise.all(locks.splice(0).map((release) => release().catch(() => {})));
  for (const p of processes.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill("SIGKILL");
      await p.exited;
    }
  }
});
afterAll(async () => {
  await two?.stop();
  await one?.stop();
  await db?.drop();
});

type Result = Record<string, unknown> & { importId: string; status: string };

/** `POST /api/site-import` with `key` in the `Idempotency-Key` header (none when undefined). */
async function post(url: string, apiKey: string, body: unknown, key?: string): Promise<RestResult<Result>> {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  if (key !== undefined) headers["idempotency-key"] = key;
  const res = await fetch(`${url}/api/site-import`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Result };
}

/** The full request of FULL_IMPORT_COUNTS: a database, two variables and a domain. */
function fullRequest(organizationId: string, name: string) {
  return dockerRequest(organizationId, {
    name,
    domain: `${name}.example.test`,
    database: { type: "postgres", name: "shop", user: "shop", password: "s3cret" },
    envVars: { APP_ENV: "production" },
  });
}

/** Holds an EXCLUSIVE lock on `table` until `release()`: the import step inserting there waits. */
async function stall(table: string, knex: Knex = db.knex): Promise<{ release(): Promise<void> }> {
  return stallTable(knex, table, locks);
}

describe("Idempotency-Key on POST /api/site-import", () => {
  it("answers a repeat with the same import and the same answer, on either instance; one record, one run", async () => {
    const org = await importReadyOrg(db.knex);
    const body = fullRequest(org.organizationId, `idem-seq-${Date.now()}`);
    const first = await post(one.url, org.owner.apiKey, body, "key-sequential-1");
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("success");
    // Same body with its properties in another order: the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post(one.url, org.owner.apiKey, reordered, "key-sequential-1");
    const elsewhere = await post(two.url, org.owner.apiKey, body, "key-sequential-1");
    expect(again).toEqual(first);
    expect(elsewhere).toEqual(first);
    expect(await countResources(db.knex, org.organizationId)).toEqual(FULL_IMPORT_COUNTS);
    const record = await db.knex("site_imports").where({ id: first.body.importId }).first();
    expect(record.attempts).toBe(1);
  });

  it("20 concurrent requests with one key over two instances: one record, one run, 20 equal answers", async () => {
    const org = await importReadyOrg(db.knex);
    const body = fullRequest(org.organizationId, `idem-race-${Date.now()}`);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 ? two.url : one.url, org.owner.apiKey, body, "race-key")),
    );
    expect(answers[0]).toMatchObject({ status: 200, body: { status: "success" } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await countResources(db.knex, org.organizationId)).toEqual(FULL_IMPORT_COUNTS);
    const keys = await db.knex("site_import_idempotency_keys").where({ organization_id: org.organizationId });
    expect(keys.map((k) => k.siteImportId)).toEqual([answers[0]!.body.importId]);
  });

  it("answers 422 naming the key when it comes with a different body, on every surface; nothing is created", async () => {
    const org = await importReadyOrg(db.knex);
    const body = dockerRequest(org.organizationId, { name: `idem-diff-${Date.now()}` });
    const first = await post(one.url, org.owner.apiKey, body, "reused-key");
    expect(first.status).toBe(200);
    const before = await countResources(db.knex, org.organizationId);
    const other = { ...body, port: 8080 };

    const rest = await post(two.url, org.owner.apiKey, other, "reused-key");
    expect(rest.status).toBe(422);
    expect(rest.body.error).toContain('Idempotency key "reused-key" was already used with a different request');
    expect(rest.body.error).toContain(first.body.importId);

    const graphql = await gql(
      one.url,
      `mutation($input: SiteImportInput!, $key: String) { importSite(input: $input, idempotencyKey: $key) { importId } }`,
      { input: other, key: "reused-key" },
      { apiKey: org.owner.apiKey },
    );
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: "IDEMPOTENCY_KEY_REUSED",
      idempotencyKey: "reused-key",
    });

    const procedure = await fetch(`${one.url}/api/siteImport.import`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
      body: JSON.stringify({ ...other, idempotencyKey: "reused-key" }),
    });
    expect(procedure.status).toBe(422);
    expect(await procedure.json()).toMatchObject({
      error: { code: "IDEMPOTENCY_KEY_REUSED", idempotencyKey: "reused-key" },
    });
    expect(await countResources(db.knex, org.organizationId)).toEqual(before);
  });

  it("a preview with the key names the import it already made, over REST and GraphQL; another body answers 422", async () => {
    const org = await importReadyOrg(db.knex);
    const body = dockerRequest(org.organizationId, { name: `idem-preview-${Date.now()}` });
    const preview = (key: string, request: unknown) =>
      fetch(`${one.url}/api/site-import/preview`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${org.owner.apiKey}`,
          "idempotency-key": key,
        },
        body: JSON.stringify(request),
      });
    const before = (await (await preview("preview-key", body)).json()) as Record<string, unknown>;
    expect(before).toMatchObject({ valid: true });
    expect(before).not.toHaveProperty("existingImport");
    const imported = await post(one.url, org.owner.apiKey, body, "preview-key");
    const after = (await (await preview("preview-key", body)).json()) as Record<string, unknown>;
    expect(after).toMatchObject({
      valid: true,
      errors: [],
      existingImport: { id: imported.body.importId, status: "success" },
    });
    const graphql = await gql(
      two.url,
      `query($input: SiteImportInput!) { previewSiteImport(input: $input, idempotencyKey: "preview-key") {
        valid existingImport { id status name } } }`,
      { input: body },
      { apiKey: org.owner.apiKey },
    );
    expect(graphql.data).toEqual({
      previewSiteImport: {
        valid: true,
        existingImport: { id: imported.body.importId, status: "success", name: body.name },
      },
    });
    expect((await preview("preview-key", { ...body, port: 81 })).status).toBe(422);
  });

  it("the GraphQL argument and the procedure answer a repeat with the same import", async () => {
    const org = await importReadyOrg(db.knex);
    const body = dockerRequest(org.organizationId, { name: `idem-gql-${Date.now()}` });
    const mutation = `mutation($input: SiteImportInput!, $key: String) {
      importSite(input: $input, idempotencyKey: $key) { importId status projectId } }`;
    const a = await gql(one.url, mutation, { input: body, key: "gql-key" }, { apiKey: org.owner.apiKey });
    const b = await gql(two.url, mutation, { input: body, key: "gql-key" }, { apiKey: org.owner.apiKey });
    expect(a.data).toEqual(b.data);
    const procedure = await fetch(`${two.url}/api/siteImport.import`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${org.owner.apiKey}`,
        "idempotency-key": "gql-key",
      },
      body: JSON.stringify(body),
    });
    const answer = (await procedure.json()) as { result: { data: { importId: string } } };
    expect(answer.result.data.importId).toBe((a.data as { importSite: { importId: string } }).importSite.importId);
    expect((await countResources(db.knex, org.organizationId)).imports).toBe(1);
  });

  it("refuses an invalid key with 400 and fieldErrors; without a key a repeat is a new import (the spec's behaviour)", async () => {
    const org = await importReadyOrg(db.knex);
    const body = dockerRequest(org.organizationId, { name: `idem-none-${Date.now()}` });
    const bad = await post(one.url, org.owner.apiKey, body, "has space");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ details: { fieldErrors: { "Idempotency-Key": [expect.any(String)] } } });
    expect((await post(one.url, org.owner.apiKey, body)).status).toBe(200);
    const repeat = await post(one.url, org.owner.apiKey, body);
    expect(repeat).toMatchObject({ status: 422, body: { status: "failed", errorStep: "project_creation" } });
    expect((await countResources(db.knex, org.organizationId)).imports).toBe(2);
  });

  it("keys are per organization: one key in two organizations makes two imports", async () => {
    const [a, b] = await Promise.all([importReadyOrg(db.knex), importReadyOrg(db.knex)]);
    const name = `idem-orgs-${Date.now()}`;
    const ra = await post(one.url, a.owner.apiKey, dockerRequest(a.organizationId, { name }), "shared-key");
    const rb = await post(one.url, b.owner.apiKey, dockerRequest(b.organizationId, { name }), "shared-key");
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.importId).not.toBe(rb.body.importId);
  });

  it("an expired key is free again (a new request with it is a new import) and the pruning job deletes it", async () => {
    const org = await importReadyOrg(db.knex);
    const first = await post(
      one.url,
      org.owner.apiKey,
      dockerRequest(org.organizationId, { name: `exp-${Date.now()}` }),
      "ttl-key",
    );
    const row = await db.knex("site_import_idempotency_keys").where({ organization_id: org.organizationId }).first();
    const hours = (row.expiresAt.getTime() - row.createdAt.getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(24, 5); // SKIFF_IDEMPOTENCY_TTL_HOURS default
    await db
      .knex("site_import_idempotency_keys")
      .where({ organization_id: org.organizationId })
      .update({
        expires_at: db.knex.raw("now() - interval '1 second'"),
      });
    const next = await post(
      one.url,
      org.owner.apiKey,
      dockerRequest(org.organizationId, { name: `exp2-${Date.now()}` }),
      "ttl-key",
    );
    expect(next.status).toBe(200);
    expect(next.body.importId).not.toBe(first.body.importId);
    await db
      .knex("site_import_idempotency_keys")
      .where({ organization_id: org.organizationId })
      .update({
        expires_at: db.knex.raw("now() - interval '1 second'"),
      });
    expect(await pruneIdempotencyKeys(db.knex)).toBeGreaterThanOrEqual(1);
    expect(await db.knex("site_import_idempotency_keys").where({ organization_id: org.organizationId })).toEqual([]);
  });

  it("while the run is pending a repeat gets the same pending answer (202) and starts nothing", async () => {
    const own = await createTestDatabase();
    const skiff = await startTestServer(own.url, { SKIFF_IMPORT_WAIT_MS: "300" });
    try {
      const org = await importReadyOrg(own.knex);
      const lock = await stall("environment_variables", own.knex);
      const body = dockerRequest(org.organizationId, { envVars: { APP_ENV: "production" } });
      const first = await post(skiff.url, org.owner.apiKey, body, "pending-key");
      const again = await post(skiff.url, org.owner.apiKey, body, "pending-key");
      expect(first).toMatchObject({ status: 202, body: { status: "pending" } });
      expect(again).toMatchObject({ status: 202, body: { status: "pending", importId: first.body.importId } });
      await lock.release();
      let last = again;
      for (let i = 0; i < 100 && last.status === 202; i++)
        last = await post(skiff.url, org.owner.apiKey, body, "pending-key");
      expect(last).toMatchObject({ status: 200, body: { status: "success", importId: first.body.importId } });
      expect((await countResources(own.knex, org.organizationId)).imports).toBe(1);
    } finally {
      await Promise.all(locks.splice(0).map((release) => release()));
      await skiff.stop();
      await own.drop();
    }
  });

  it("a Skiff killed mid-import and started again answers the repeat with the same import, run once", async () => {
    const org = await importReadyOrg(db.knex);
    const start = async () => {
      const p = spawnSkiff({
        DATABASE_URL: db.url,
        SKIFF_BOOTSTRAP: "false",
        SKIFF_HEALTH_INTERVAL: "0",
        SKIFF_IMPORT_WAIT_MS: "500",
      });
      processes.push(p);
      const listening = await p.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 60_000);
      return String(listening.msg).replace("Server listening at ", "");
    };
    const firstUrl = await start();
    const lock = await stall("environment_variables");
    const body = fullRequest(org.organizationId, `idem-crash-${Date.now()}`);
    const first = await post(firstUrl, org.owner.apiKey, body, "crash-key");
    expect(first).toMatchObject({ status: 202, body: { status: "pending" } });
    processes[0]!.child.kill("SIGKILL");
    await processes[0]!.exited;

    const secondUrl = await start();
    const during = await post(secondUrl, org.owner.apiKey, body, "crash-key");
    expect(during).toMatchObject({ status: 202, body: { importId: first.body.importId, status: "pending" } });
    await lock.release();
    let last = during;
    for (let i = 0; i < 200 && last.status === 202; i++)
      last = await post(secondUrl, org.owner.apiKey, body, "crash-key");
    expect(last).toMatchObject({ status: 200, body: { status: "success", importId: first.body.importId } });
    expect(await countResources(db.knex, org.organizationId)).toEqual(FULL_IMPORT_COUNTS);
  });
});
