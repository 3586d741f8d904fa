/**
 * Isolation of slow receivers (docs/webhooks.md): with 4 workers and the default per-endpoint cap (1), a receiver
 * that never answers holds one attempt for its 10 s budget while 9 healthy receivers (real HTTPS servers on loopback,
 * allowed through SKIFF_OUTBOUND_ALLOW, test CA) get every delivery; the hung endpoint's other deliveries wait in the
 * queue (due, not claimed, not attempted) and, once it answers again, run as their first attempt (a wait is not an
 * attempt). A slow receiver that answers gets one attempt at a time, the next one claimed as the previous one ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1", SKIFF_WORKER_CONCURRENCY: "4" });

const EVENTS = 5;
let healthy: HttpsReceiver[] = [];
let hanging: HttpsReceiver;
/** Whether the bad receiver still hangs (it answers 200 once this is false). */
let hangs = true;

beforeAll(async () => {
  healthy = await Promise.all(Array.from({ length: 9 }, () => startHttpsReceiver({ behaviour: { status: 200 } })));
  hanging = await startHttpsReceiver();
  // Longer than the 10 s attempt budget: the attempt times out.
  hanging.respond(() => (hangs ? { status: 200, delayMs: 60_000 } : { status: 200 }));
});
afterAll(async () => {
  await Promise.all([...healthy, hanging].map((r) => r?.close()));
});

/** Rows of `ids` once `done` holds for them (or after `timeoutMs`). */
async function waitFor(ids: string[], done: (status: string) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = (await t.db
      .knex("webhook_deliveries")
      .whereIn("id", ids)
      .select("id", "status", "attempts")) as Array<{
      id: string;
      status: string;
      attempts: number;
    }>;
    if (rows.every((r) => done(r.status)) || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("webhook isolation", () => {
  it("delivers to 9 healthy receivers while the 10th hangs; the hung one's attempts wait without counting", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    await Promise.all(healthy.map((r) => insertWebhook(t.db.knex, organizationId, `${r.url}/ok`)));
    const bad = await insertWebhook(t.db.knex, organizationId, `${hanging.url}/hang`);
    const orgId = await orgNumber(t.db.knex, organizationId);
    const deliveries: Array<{ webhook_uuid: string; delivery_id: string }> = [];
    for (let i = 0; i < EVENTS; i++) {
      const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
        event: "course_completed",
        data: COURSE_COMPLETED,
      });
      expect(res.status).toBe(202);
      deliveries.push(...res.body.deliveries);
    }
    const goodIds = deliveries.filter((d) => d.webhook_uuid !== bad.id).map((d) => d.delivery_id);
    const badIds = deliveries.filter((d) => d.webhook_uuid === bad.id).map((d) => d.delivery_id);
    expect(goodIds).toHaveLength(9 * EVENTS);
    expect(badIds).toHaveLength(EVENTS);

    // Every healthy delivery arrives while the hung receiver still holds its first (and only) attempt.
    const goodRows = await waitFor(goodIds, (s) => s === "delivered", 9_000);
    expect(goodRows.filter((r) => r.status === "delivered")).toHaveLength(9 * EVENTS);
    expect(goodRows.every((r) => r.attempts === 1)).toBe(true);
    for (const [i, r] of healthy.entries()) expect(r.requests, `receiver ${i}`).toHaveLength(EVENTS);
    expect(hanging.requests).toHaveLength(1);
    expect(await t.db.knex("webhook_delivery_attempts").where({ endpoint_id: bad.id })).toHaveLength(0);
    // Its other deliveries wait in the queue, put off: pending, no attempt made.
    const badRows = await t.db.knex("webhook_deliveries").whereIn("id", badIds);
    expect(badRows.every((r) => r.status === "pending" && r.attempts === 0)).toBe(true);
    // Waiting in the table, holding nothing: only the attempt in flight (the cap: 1) is leased.
    const leased = badRows.filter((r) => r.lockedUntil !== null && r.lockedUntil.getTime() > Date.now());
    expect(leased).toHaveLength(1);
    expect(badRows.every((r) => r.nextAttemptAt !== null)).toBe(true);

    // The receiver recovers: the timed-out delivery is retried as attempt 2, the others are delivered at attempt 1.
    hangs = false;
    const rows = await waitFor(badIds, (s) => s === "delivered", 30_000);
    expect(rows.map((r) => r.status)).toEqual(badIds.map(() => "delivered"));
    const log = (await t.db
      .knex("webhook_delivery_attempts")
      .where({ endpoint_id: bad.id })
      .orderBy("id")
      .select("delivery_id", "attempt", "success", "error_message")) as Array<{
      deliveryId: string;
      attempt: number;
      success: boolean;
      errorMessage: string | null;
    }>;
    const failures = log.filter((e) => !e.success);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.attempt).toBe(1);
    expect(log.filter((e) => e.success && e.attempt === 2).map((e) => e.deliveryId)).toEqual([failures[0]!.deliveryId]);
    expect(log.filter((e) => e.success && e.attempt === 1)).toHaveLength(EVENTS - 1);
  }, 60_000);

  it("runs one attempt at a time to a slow receiver, claiming the next as the previous one ends", async () => {
    const slow = await startHttpsReceiver();
    try {
      const arrivals: number[] = [];
      slow.respond(() => {
        arrivals.push(Date.now());
        return { status: 200, delayMs: 400 };
      });
      const { organizationId, owner } = await createOrg(t.db.knex);
      await insertWebhook(t.db.knex, organizationId, `${slow.url}/slow`);
      const orgId = await orgNumber(t.db.knex, organizationId);
      const ids: string[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
          event: "course_completed",
          data: COURSE_COMPLETED,
        });
        expect(res.status).toBe(202);
        ids.push(...res.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id));
      }
      // The waiting deliveries are claimed as soon as the attempt in flight ends.
      const rows = await waitFor(ids, (s) => s === "delivered", 8_000);
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ["delivered", 1]));
      expect(arrivals).toHaveLength(EVENTS);
      // The cap (1): each request arrives after the previous one was answered (400 ms later).
      for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(390);
      expect(arrivals.at(-1)! - arrivals[0]!).toBeLessThan(EVENTS * 400 + 3_000);
    } finally {
      await slow.close();
    }
  }, 30_000);
});
