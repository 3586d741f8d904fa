/**
 * Durable delivery (killing the server with kill -9 mid-delivery loses nothing): a real `src/main.ts`
 * process makes the first attempt of a delivery (the receiver answers 500) and is killed with SIGKILL during the
 * 1 s wait; a new process started on the same database makes attempts 2 and 3 of the same series: same
 * delivery_id, same bytes, the third answered 200 ends it as delivered. And a process killed while an attempt is in
 * flight: its job was locked by a worker that no longer exists; the next instance's start-up sweep
 * (src/jobs/job-liveness.ts) returns it to the queue at once, and the attempt is made again (at least once).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { createOrg } from "../helpers/seed.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

let db: TestDatabase;
let receiver: HttpsReceiver;
const processes: SkiffProcess[] = [];

/** Starts `src/main.ts` on the test database; resolves with its base URL once it listens. */
async function start(): Promise<string> {
  const p = spawnSkiff({
    DATABASE_URL: db.url,
    SKIFF_BOOTSTRAP: "false",
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
  });
  processes.push(p);
  const listening = await p.waitForLog((r) => String(r.msg).startsWith("Server listening at"));
  return String(listening.msg).replace("Server listening at ", "");
}

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill("SIGKILL");
      await p.exited;
    }
  }
  await receiver?.close();
  await db?.drop();
});

describe("durable delivery", () => {
  it("a server killed with SIGKILL during a series finishes it after restart", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const hook = await insertWebhook(db.knex, organizationId, `${receiver.url}/durable`);
    let n = 0;
    receiver.respond(() => ({ status: ++n >= 3 ? 200 : 500 }));
    const first = await start();
    const published = await rest(
      first,
      "POST",
      `/api/v1/orgs/${await orgNumber(db.knex, organizationId)}/events`,
      owner.apiKey,
      {
        event: "course_completed",
        data: COURSE_COMPLETED,
      },
    );
    expect(published.status).toBe(202);
    const deliveryId = published.body.deliveries[0].delivery_id as string;
    await receiver.waitForRequests(1, 10_000);
    // Kill once the first attempt is logged and its retry is queued (in the 1 s wait).
    const deadline = Date.now() + 3_000;
    let retryQueued = false;
    for (;;) {
      const { rows } = await db.knex.raw(
        "select 1 from graphile_worker._private_jobs where key = ? and locked_at is null and (payload::jsonb -> '_retry') is not null",
        [`webhook:${deliveryId}`],
      );
      retryQueued = rows.length > 0;
      if (retryQueued || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(retryQueued).toBe(true);
    const killed = processes[0]!;
    killed.child.kill("SIGKILL");
    expect((await killed.exited).signal).toBe("SIGKILL");
    expect(receiver.requests).toHaveLength(1);
    expect(await db.knex("webhook_deliveries").where({ id: deliveryId }).first()).toMatchObject({
      status: "pending",
      attempts: 1,
    });

    await start();
    const got = await receiver.waitForRequests(3, 15_000);
    expect(got.map((r) => r.headers["x-webhook-delivery"])).toEqual([deliveryId, deliveryId, deliveryId]);
    expect(new Set(got.map((r) => r.body.toString())).size).toBe(1);
    const deadline2 = Date.now() + 5_000;
    let row = await db.knex("webhook_deliveries").where({ id: deliveryId }).first();
    while (row.status === "pending" && Date.now() < deadline2) {
      await new Promise((r) => setTimeout(r, 20));
      row = await db.knex("webhook_deliveries").where({ id: deliveryId }).first();
    }
    const log = await db.knex("webhook_delivery_attempts").where({ delivery_id: deliveryId }).orderBy("id");
    // Each attempt once: the first process's attempt 1 (its retry queued, the job marked superseded in the same
    // transaction) is not run again by the sweep beside its retry after the SIGKILL.
    expect(
      log.map((a) => [a.attempt, a.success]),
      JSON.stringify(log),
    ).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(row).toMatchObject({ status: "delivered", attempts: 3 });
    expect(hook.id).toBe(row.endpointId);
  }, 60_000);

  it("a server killed with SIGKILL while an attempt is in flight: the next instance makes the attempt again", async () => {
    // Only this test's servers may take the job: the previous test's are stopped first.
    for (const p of processes) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill("SIGTERM");
        await p.exited;
      }
    }
    const { organizationId, owner } = await createOrg(db.knex);
    await insertWebhook(db.knex, organizationId, `${receiver.url}/in-flight`);
    const before = receiver.requests.length;
    let n = 0;
    // The first request hangs (the attempt is in flight when the server dies); later ones succeed at once.
    receiver.respond(() => (++n === 1 ? { status: 200, delayMs: 8_000 } : { status: 200 }));
    const first = await start();
    const published = await rest(
      first,
      "POST",
      `/api/v1/orgs/${await orgNumber(db.knex, organizationId)}/events`,
      owner.apiKey,
      { event: "course_completed", data: COURSE_COMPLETED },
    );
    expect(published.status).toBe(202);
    const deliveryId = published.body.deliveries[0].delivery_id as string;
    await receiver.waitForRequests(before + 1, 10_000);
    const locked = await db.knex.raw(
      "select locked_by from graphile_worker._private_jobs where key = ? and locked_at is not null",
      [`webhook:${deliveryId}`],
    );
    expect(locked.rows).toHaveLength(1);
    const killed = processes.at(-1)!;
    killed.child.kill("SIGKILL");
    expect((await killed.exited).signal).toBe("SIGKILL");

    await start();
    // From the new instance's readiness (its start-up on a loaded machine is no part of the bound).
    const restartedAt = Date.now();
    const got = await receiver.waitForRequests(before + 2, 15_000);
    // Well before graphile-worker's own 4-hour lock expiry: the start-up sweep freed it.
    expect(Date.now() - restartedAt).toBeLessThan(15_000);
    expect(got.slice(before).map((r) => r.headers["x-webhook-delivery"])).toEqual([deliveryId, deliveryId]);
    const deadline = Date.now() + 5_000;
    let row = await db.knex("webhook_deliveries").where({ id: deliveryId }).first();
    while (row.status === "pending" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      row = await db.knex("webhook_deliveries").where({ id: deliveryId }).first();
    }
    expect(row.status).toBe("delivered");
  }, 60_000);
});
