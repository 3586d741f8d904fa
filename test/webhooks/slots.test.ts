/**
 * An attempt holds its slot while its request is in flight, not while its outcome is written (docs/webhooks.md
 * "Isolation of slow receivers"): with one worker, a delivery whose outcome cannot be written yet (its row locked
 * by another transaction) leaves the worker free for the next delivery, and is logged once the lock goes.
 */
import { describe, expect, it } from "vitest";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1", SKIFF_WORKER_CONCURRENCY: "1" });

/** Waits until `probe` is true (every 20 ms, at most `timeoutMs`). */
async function until(probe: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe("webhook attempt slots", () => {
  it("frees the slot when the receiver answers, before the outcome is written", async () => {
    const receiver = await startHttpsReceiver();
    // The first request is answered 500 ms after it arrives: time for the test to lock its delivery's row.
    receiver.respond((req) => ({ status: 200, delayMs: receiver.requests.indexOf(req) === 0 ? 500 : 0 }));
    const trx = await t.db.knex.transaction();
    try {
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

      const first = await publish();
      await receiver.waitForRequests(1);
      // Its request is in flight: lock the row its outcome will update.
      await trx("webhook_deliveries").where({ id: first }).forUpdate().first("id");
      const second = await publish();
      // The only worker is free once the first answer came: the second delivery is made and logged meanwhile.
      const [, made] = await receiver.waitForRequests(2, 5_000);
      expect(made!.headers["x-webhook-delivery"]).toBe(second);
      expect(
        await until(
          async () =>
            (await t.db.knex("webhook_deliveries").where({ id: second }).first("status"))?.status === "delivered",
        ),
      ).toBe(true);
      const held = await t.db.knex("webhook_deliveries").where({ id: first }).first("status", "locked_by");
      expect(held).toMatchObject({ status: "pending" });
      expect(held!.locked_by).not.toBeNull();
      expect(await t.db.knex("webhook_delivery_attempts").where({ delivery_id: first })).toHaveLength(0);

      await trx.commit();
      expect(
        await until(
          async () =>
            (await t.db.knex("webhook_deliveries").where({ id: first }).first("status"))?.status === "delivered",
        ),
      ).toBe(true);
      const logged = await t.db.knex("webhook_delivery_attempts").where({ delivery_id: first });
      expect(logged.map((a) => [a.attempt, a.success])).toEqual([[1, true]]);
      expect(receiver.requests).toHaveLength(2);
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
      await receiver.close();
    }
  }, 30_000);
});
