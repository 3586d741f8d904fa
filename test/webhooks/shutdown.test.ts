/**
 * The dispatcher at a graceful shutdown: an attempt that ends within the workers' shutdown time finishes and is
 * logged before the instance stops; one still waiting for its receiver at that deadline is aborted, not logged, and
 * its delivery given back to the queue at once (due, no lease), so another instance makes it without waiting for
 * the lease to expire.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitWebhookEvent } from "../../src/modules/webhooks/webhook-emit.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createOrg } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook } from "./webhook-helpers.ts";

let db: TestDatabase;
let receiver: HttpsReceiver;
beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await db?.drop();
});

describe("webhook attempts at shutdown", () => {
  it("finishes an attempt within the shutdown time and gives back one past it", async () => {
    const skiff = await startTestServer(db.url, {
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
      SKIFF_SHUTDOWN_TIMEOUT: "2",
      SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: "1500",
    });
    const { organizationId } = await createOrg(db.knex);
    const quickHook = await insertWebhook(db.knex, organizationId, `${receiver.url}/quick`);
    const slowHook = await insertWebhook(db.knex, organizationId, `${receiver.url}/slow`);
    receiver.respond((req) =>
      req.path.endsWith("/slow") ? { status: 200, delayMs: 8_000 } : { status: 200, delayMs: 500 },
    );
    const made = await emitWebhookEvent(
      { knex: skiff.services.knex, services: skiff.services },
      organizationId,
      "course_completed",
      COURSE_COMPLETED,
    );
    expect(made).toHaveLength(2);
    await receiver.waitForRequests(2, 10_000);
    await skiff.stop();
    const rowOf = async (endpointId: string) =>
      (await db
        .knex("webhook_deliveries")
        .where({ id: made.find((d) => d.webhookUuid === endpointId)!.deliveryId })
        .first()) as {
        id: string;
        status: string;
        attempts: number;
        lockedBy: string | null;
        nextAttemptAt: Date | null;
      };
    const quick = await rowOf(quickHook.id);
    expect(quick).toMatchObject({ status: "delivered", attempts: 1, lockedBy: null, nextAttemptAt: null });
    const slow = await rowOf(slowHook.id);
    expect(slow).toMatchObject({ status: "pending", attempts: 0, lockedBy: null });
    expect(slow.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const log = (await db.knex("webhook_delivery_attempts").whereIn(
      "delivery_id",
      made.map((d) => d.deliveryId),
    )) as Array<{ deliveryId: string }>;
    expect(log.map((e) => e.deliveryId)).toEqual([quick.id]);
  }, 30_000);
});
