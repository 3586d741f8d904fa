/**
 * Durable delivery (killing the server with kill -9 mid-delivery loses nothing): a real `src/main.ts`
 * process makes the first attempt of a delivery (the receiver answers 500) and is killed with SIGKILL during the
 * 1 s wait; a new process started on the same database makes attempts 2 and 3 of the same series: same
 * delivery_id, same bytes, the third answered 200 ends it as delivered. And a process killed while attempts are in
 * flight: their deliveries are leased to an instance that no longer exists; once the leases expire
 * (SKIFF_WEBHOOK_LEASE_SECONDS) the next instance makes those attempts again (at least once: same delivery_id, same
 * bytes, same attempt number), each attempt logged once, every delivery delivered (the ledger balances).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { createOrg } from "../helpers/seed.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

/** The leases of the test's servers (the least allowed). */
const LEASE_SECONDS = 11;

let db: TestDatabase;
let receiver: HttpsReceiver;
const processes: SkiffProcess[] = [];

/** Starts `src/main.ts` on the test database; resolves with its base URL once it listens. */
async function start(): Promise<string> {
  const p = spawnSkiff({
    DATABASE_URL: db.url,
    SKIFF_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
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
        `select 1 from webhook_deliveries
          where id = ? and attempts = 1 and status = 'pending' and next_attempt_at is not null and locked_by is null`,
        [deliveryId],
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
    // Each attempt once: the first process's attempt 1 (logged with its retry due, in one statement) is not made
    // again after the SIGKILL.
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

  it("a server killed with SIGKILL while attempts are in flight: after their leases expire the next instance makes them again", async () => {
    // Only this test's servers may take the deliveries: the previous test's are stopped first.
    for (const p of processes) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill("SIGTERM");
        await p.exited;
      }
    }
    const { organizationId, owner } = await createOrg(db.knex);
    // 3 endpoints (the default cap of 4 workers is 1 attempt per endpoint): 3 attempts in flight, the others queued.
    for (let i = 0; i < 3; i++) await insertWebhook(db.knex, organizationId, `${receiver.url}/in-flight/${i}`);
    const before = receiver.requests.length;
    let hang = true;
    // The first requests hang (in flight when the server dies); once it is dead every request succeeds at once.
    receiver.respond(() => (hang ? { status: 200, delayMs: 20_000 } : { status: 200 }));
    const first = await start();
    const deliveryIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const published = await rest(
        first,
        "POST",
        `/api/v1/orgs/${await orgNumber(db.knex, organizationId)}/events`,
        owner.apiKey,
        { event: "course_completed", data: COURSE_COMPLETED },
      );
      expect(published.status).toBe(202);
      deliveryIds.push(...published.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id));
    }
    expect(deliveryIds).toHaveLength(12);
    await receiver.waitForRequests(before + 3, 10_000);
    const leased = (await db.knex("webhook_deliveries").whereIn("id", deliveryIds).whereNotNull("locked_by")) as Array<{
      id: string;
      lockedUntil: Date;
    }>;
    expect(leased).toHaveLength(3);
    const killed = processes.at(-1)!;
    killed.child.kill("SIGKILL");
    expect((await killed.exited).signal).toBe("SIGKILL");
    const killedAt = Date.now();
    hang = false;

    await start();
    const got = await receiver.waitForRequests(before + 15, 40_000);
    // The attempts in flight are made again only once their leases expired.
    const again = got.slice(before + 3).filter((r) => leased.some((l) => l.id === r.headers["x-webhook-delivery"]));
    expect(again).toHaveLength(3);
    expect(Date.now() - killedAt).toBeGreaterThan(LEASE_SECONDS * 1000 - 3000);
    for (const l of leased) {
      const bodies = got.filter((r) => r.headers["x-webhook-delivery"] === l.id).map((r) => r.body.toString());
      expect(bodies).toHaveLength(2);
      expect(new Set(bodies).size).toBe(1);
    }
    const deadline = Date.now() + 5_000;
    let rows = await db.knex("webhook_deliveries").whereIn("id", deliveryIds);
    while (rows.some((r) => r.status === "pending") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      rows = await db.knex("webhook_deliveries").whereIn("id", deliveryIds);
    }
    // The ledger: every delivery delivered, each attempt logged once (the killed attempts were never logged).
    expect(rows.map((r) => r.status)).toEqual(deliveryIds.map(() => "delivered"));
    const log = (await db.knex("webhook_delivery_attempts").whereIn("delivery_id", deliveryIds)) as Array<{
      deliveryId: string;
      attempt: number;
      success: boolean;
    }>;
    expect(log.map((e) => [e.attempt, e.success])).toEqual(deliveryIds.map(() => [1, true]));
    expect(new Set(log.map((e) => e.deliveryId)).size).toBe(12);
    // Every delivery reached the receiver: once, or twice for the 3 whose first request the dead server made.
    const seen = new Set(got.slice(before).map((r) => r.headers["x-webhook-delivery"]));
    expect(deliveryIds.every((id) => seen.has(id))).toBe(true);
  }, 90_000);
});
