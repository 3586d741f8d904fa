/**
 * The job kernel's `jobs.remove(db, jobKeys)` (modules never write graphile-worker's tables): it removes
 * queued jobs by key in the caller's transaction (a rollback keeps them), counts what it removed and ignores
 * unknown keys. Also the domain event bus's guard: `events.emit` refuses data its catalogue schema rejects, before
 * any consumer writes. An API-only instance (SKIFF_WORKER=false) enqueues, so nothing runs the jobs meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "../../src/modules/events.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { type JobServer, startJobServer } from "./job-fixture.ts";

let db: TestDatabase;
let api: JobServer;

beforeAll(async () => {
  db = await createTestDatabase();
  api = await startJobServer(db.url, "api", { SKIFF_WORKER: "false" });
});
afterAll(async () => {
  await api?.skiff.stop();
  await db?.drop();
});

const queuedKeys = async () =>
  (
    (await db.knex.raw("select key from graphile_worker.jobs where task_identifier = 'test.record' order by key")) as {
      rows: Array<{ key: string }>;
    }
  ).rows.map((r) => r.key);

describe("jobs.remove", () => {
  it("removes queued jobs by key in the caller's transaction, counting them; unknown keys are ignored", async () => {
    const jobs = api.skiff.services.jobs;
    for (const key of ["rm-a", "rm-b", "rm-c"]) {
      await jobs.enqueue(db.knex, "test.record", { key }, { jobKey: key, runAt: new Date(Date.now() + 3_600_000) });
    }
    expect(await queuedKeys()).toEqual(["rm-a", "rm-b", "rm-c"]);

    await expect(
      db.knex.transaction(async (trx) => {
        expect(await jobs.remove(trx, ["rm-a", "rm-b"])).toBe(2);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await queuedKeys()).toEqual(["rm-a", "rm-b", "rm-c"]);

    expect(await db.knex.transaction((trx) => jobs.remove(trx, ["rm-a", "rm-b", "no-such-key"]))).toBe(2);
    expect(await queuedKeys()).toEqual(["rm-c"]);
    expect(await jobs.remove(db.knex, [])).toBe(0);
    expect(await jobs.remove(db.knex, ["rm-c"])).toBe(1);
    expect(await queuedKeys()).toEqual([]);
  });
});

describe("events.emit", () => {
  it("refuses data that its catalogue schema rejects, naming the event", async () => {
    const { organizationId } = await createOrg(db.knex);
    const ctx = { knex: db.knex, services: api.skiff.services };
    await expect(
      events.emit(ctx, "app.health_changed", {
        organizationId,
        // @ts-expect-error: `from` must be a health state; the typed catalogue refuses it at compile time too.
        data: { application: { application_id: "app_1", name: "a", project_id: "prj_1" }, from: 3, to: "healthy" },
      }),
    ).rejects.toThrow(/Invalid data for domain event app.health_changed/);
  });
});
