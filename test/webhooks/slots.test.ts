/**
 * An attempt holds its slot while its request is in flight, not while its outcome is written (docs/webhooks.md
 * "Isolation of slow receivers"): with one worker, a delivery whose outcome cannot be written yet (its row locked
 * by another transaction) leaves the worker free for the next delivery, and is logged once the lock goes; and a
 * delivery whose outcome waits past its lease (the log table locked meanwhile) is not attempted again by the
 * instance that holds it.
 */
import { describe, expect, it } from "vitest";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

const LEASE_SECONDS = 11;
const t = useTestServer({
  SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
  SKIFF_WORKER_CONCURRENCY: "1",
  SKIFF_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
});

/** Waits until delivery `id` is `delivered` (every 20 ms, at most 5 s); whether it got there. */
async function delivered(id: string): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if ((await t.db.knex("webhook_deliveries").where({ id }).first("status"))?.status === "delivered") return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/**
 * A receiver that answers its first request 500 ms after it arrives (time for the test to lock something) and the
 * others at once, an organization with one endpoint on it, and `publish`, which sends one event and returns its
 * delivery's id.
 */
async function setUp() {
  const receiver = await startHttpsReceiver();
  receiver.respond((req) => ({ status: 200, delayMs: receiver.requests.indexOf(req) === 0 ? 500 : 0 }));
  const { organizationId, owner } = await createOrg(t.db.knex);
  await insertWebhook(t.db.knex, organizationId, `${receiver.url}/hook`);
  const orgId = await orgNumber(t.db.knex, organizationId);
  const publish = async () => {
    const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
      event: "course_completed",
      data: COURSE_COMPLETED,
    });
    expect(res.status).toBe(202);
    return res.body.deliveries[0].delivery_id as string;
  };
  return { receiver, publish };
}

/** The attempts logged for delivery `id`, as [attempt, success]. */
async function logged(id: string): Promise<Array<[number, boolean]>> {
  const rows = await t.db.knex("webhook_delivery_attempts").where({ delivery_id: id });
  return rows.map((a) => [a.attempt, a.success]);
}

describe("webhook attempt slots", () => {
  it("frees the slot when the receiver answers, before the outcome is written", async () => {
    const { receiver, publish } = await setUp();
    const trx = await t.db.knex.transaction();
    try {
      const first = await publish();
      await receiver.waitForRequests(1);
      // Its request is in flight: lock the row its outcome will update.
      await trx("webhook_deliveries").where({ id: first }).forUpdate().first("id");
      const second = await publish();
      // The only worker is free once the first answer came: the second delivery is made and logged meanwhile.
      const [, made] = await receiver.waitForRequests(2, 5_000);
      expect(made!.headers["x-webhook-delivery"]).toBe(second);
      expect(await delivered(second)).toBe(true);
      const held = await t.db.knex("webhook_deliveries").where({ id: first }).first("status", "locked_by");
      expect(held).toMatchObject({ status: "pending" });
      expect(held!.lockedBy).toEqual(expect.any(String));
      expect(await logged(first)).toEqual([]);

      await trx.commit();
      expect(await delivered(first)).toBe(true);
      expect(await logged(first)).toEqual([[1, true]]);
      expect(receiver.requests).toHaveLength(2);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await receiver.close();
    }
  }, 30_000);

  it("does not attempt again a delivery whose outcome waits past its lease", async () => {
    const { receiver, publish } = await setUp();
    const trx = await t.db.knex.transaction();
    try {
      const id = await publish();
      await receiver.waitForRequests(1);
      // While its request is in flight, the delivery log is locked (as a long migration would): its outcome waits.
      await trx.raw("lock table webhook_delivery_attempts in access exclusive mode");
      await new Promise((r) => setTimeout(r, (LEASE_SECONDS + 2) * 1000));
      // The lease has expired; the instance still holds the outcome and did not send the delivery again.
      const lease = await t.db.knex("webhook_deliveries").where({ id }).first("status", "locked_until");
      expect(lease!.status).toBe("pending");
      expect(new Date(lease!.lockedUntil).getTime()).toBeLessThan(Date.now());
      expect(receiver.requests).toHaveLength(1);

      await trx.commit();
      expect(await delivered(id)).toBe(true);
      expect(await logged(id)).toEqual([[1, true]]);
      expect(receiver.requests).toHaveLength(1);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await receiver.close();
    }
  }, 40_000);
});
