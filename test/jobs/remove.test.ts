/**
 * The job kernel's `jobs.remove(db, jobKeys)` (modules never write graphile-worker's tables): it removes
 * queued jobs by key in the caller's transaction (a rollback keeps them), counts what it removed and ignores
 * unknown keys. `jobs.postpone` puts off the due jobs of given keys to a run time and `jobs.runNow` makes waiting
 * jobs due now, each answering the jobs it changed. Also the domain event bus's guard: `events.emit` refuses data its catalogue schema rejects, before
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

/** `key` → seconds from now to its run time (rounded), for the test jobs. */
const runTimes = async () =>
  Object.fromEntries(
    (
      (await db.knex.raw(
        "select key, round(extract(epoch from run_at - now()))::int as s from graphile_worker.jobs where task_identifier = 'test.record'",
      )) as { rows: Array<{ key: string; s: number }> }
    ).rows.map((r) => [r.key, r.s]),
  );

describe("jobs.postpone and jobs.runNow", () => {
  it("puts off the due jobs of the keys given, then makes them due again, answering what changed", async () => {
    const jobs = api.skiff.services.jobs;
    await jobs.enqueue(db.knex, "test.record", { key: "pp-due-1" }, { jobKey: "pp-due-1" });
    await jobs.enqueue(db.knex, "test.record", { key: "pp-due-2" }, { jobKey: "pp-due-2" });
    await jobs.enqueue(
      db.knex,
      "test.record",
      { key: "pp-later" },
      {
        jobKey: "pp-later",
        runAt: new Date(Date.now() + 3_600_000),
      },
    );
    await jobs.enqueue(db.knex, "test.record", { key: "pp-other" }, { jobKey: "pp-other" });
    const ids = Object.fromEntries(
      (
        (await db.knex.raw("select key, id::text from graphile_worker.jobs where key like 'pp-%'")) as {
          rows: Array<{ key: string; id: string }>;
        }
      ).rows.map((r) => [r.key, r.id]),
    );

    // Only due jobs of the keys given: `pp-later` keeps its hour, `pp-other` stays due.
    const parked = await jobs.postpone(
      db.knex,
      ["pp-due-1", "pp-due-2", "pp-later", "no-such-key"],
      new Date(Date.now() + 600_000),
    );
    expect(parked).toEqual([
      { id: ids["pp-due-1"], key: "pp-due-1" },
      { id: ids["pp-due-2"], key: "pp-due-2" },
    ]);
    expect(await runTimes()).toEqual({ "pp-due-1": 600, "pp-due-2": 600, "pp-later": 3600, "pp-other": 0 });

    expect((await jobs.runNow(db.knex, [ids["pp-due-2"]!, "999999999"])).sort()).toEqual([ids["pp-due-2"]]);
    expect(await runTimes()).toEqual({ "pp-due-1": 600, "pp-due-2": 0, "pp-later": 3600, "pp-other": 0 });
    expect(await jobs.postpone(db.knex, [], new Date())).toEqual([]);
    expect(await jobs.runNow(db.knex, [])).toEqual([]);
    await jobs.remove(db.knex, ["pp-due-1", "pp-due-2", "pp-later", "pp-other"]);
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
