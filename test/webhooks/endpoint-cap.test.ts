/**
 * The per-endpoint cap on attempts in flight (docs/webhooks.md "Isolation of slow receivers") above 1: with
 * SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY=3 of 8, a slow receiver (300 ms per answer) never has more than 3 requests of
 * its endpoint in flight, and gets 3 at once while deliveries wait; a fast endpoint of the same events is served
 * meanwhile, and every delivery is made once, as its first attempt.
 */
import { describe, expect, it } from "vitest";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

const t = useTestServer({
  SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
  SKIFF_WORKER_CONCURRENCY: "8",
  SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY: "3",
});

const EVENTS = 12;
const ANSWER_MS = 300;

describe("per-endpoint cap", () => {
  it("holds at most the cap of one endpoint's attempts in flight, and the others go on", async () => {
    const slow = await startHttpsReceiver();
    const fast = await startHttpsReceiver({ behaviour: { status: 200 } });
    try {
      const arrivals: number[] = [];
      slow.respond(() => {
        arrivals.push(Date.now());
        return { status: 200, delayMs: ANSWER_MS };
      });
      const { organizationId, owner } = await createOrg(t.db.knex);
      const slowHook = await insertWebhook(t.db.knex, organizationId, `${slow.url}/slow`);
      await insertWebhook(t.db.knex, organizationId, `${fast.url}/fast`);
      const orgId = await orgNumber(t.db.knex, organizationId);
      // All events in one transaction's worth of time: the slow endpoint's deliveries are due together.
      const ids: string[] = [];
      await Promise.all(
        Array.from({ length: EVENTS }, async () => {
          const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
            event: "course_completed",
            data: COURSE_COMPLETED,
          });
          expect(res.status).toBe(202);
          ids.push(...res.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id));
        }),
      );
      // The fast endpoint gets every event while the slow one still works through its queue.
      await fast.waitForRequests(EVENTS, 10_000);
      expect(arrivals.length).toBeLessThan(EVENTS);
      await slow.waitForRequests(EVENTS, 15_000);
      // Each request is in flight from its arrival until its answer, ANSWER_MS later; the next one of the endpoint
      // starts only once a slot freed: never more than 3 overlap.
      const overlap = arrivals.map((a) => arrivals.filter((b) => b <= a && a < b + ANSWER_MS - 5).length);
      expect(Math.max(...overlap)).toBe(3);
      const deadline = Date.now() + 5_000;
      let rows = await t.db.knex("webhook_deliveries").whereIn("id", ids);
      while (rows.some((r) => r.status === "pending") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        rows = await t.db.knex("webhook_deliveries").whereIn("id", ids);
      }
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ["delivered", 1]));
      const logged = await t.db.knex("webhook_delivery_attempts").where({ endpoint_id: slowHook.id });
      expect(logged).toHaveLength(EVENTS);
    } finally {
      await slow.close();
      await fast.close();
    }
  }, 40_000);
});
