/**
 * Webhook upkeep and the delivery log: the log keeps the newest 200 attempts per
 * endpoint; an endpoint whose deliveries all failed for 5 days is set inactive and the organization's
 * notification channels are mailed; redeliver runs a new series of the stored body under the same delivery id; a
 * `webhooks.deliver` job of the previous release (a rolling update) hands its delivery over to the queue.
 */
import { describe, expect, it } from "vitest";
import { addJob } from "../../src/jobs/job-queue.ts";
import { ATTEMPTS_KEPT, pruneWebhookAttempts } from "../../src/modules/webhooks/webhook.jobs.ts";
import { attemptDelivery } from "../../src/modules/webhooks/webhook-attempt.ts";
import { DELIVER_JOB, deliveryJobKey, newDeliveryId } from "../../src/modules/webhooks/webhook-emit.ts";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });

/** Inserts a pending delivery of `endpointId` with a fixed body. */
async function insertDelivery(endpointId: string, organizationId: string, status = "pending") {
  const id = newDeliveryId();
  const body = JSON.stringify({
    event: "ping",
    delivery_id: id,
    timestamp: new Date().toISOString(),
    org_id: 1,
    data: { message: "hi" },
  });
  await t.db
    .knex("webhook_deliveries")
    .insert({ id, endpoint_id: endpointId, organization_id: organizationId, event: "ping", body, status });
  return { id, body };
}

describe("webhook upkeep", () => {
  it("prunes the log to the newest 200 attempts per endpoint", async () => {
    const { organizationId } = await createOrg(t.db.knex);
    const a = await insertWebhook(t.db.knex, organizationId, "https://127.0.0.1:9/a");
    const b = await insertWebhook(t.db.knex, organizationId, "https://127.0.0.1:9/b");
    const da = await insertDelivery(a.id, organizationId, "failed");
    const db = await insertDelivery(b.id, organizationId, "failed");
    const rows = (endpoint: string, delivery: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        delivery_id: delivery,
        endpoint_id: endpoint,
        event: "ping",
        attempt: (i % 3) + 1,
        success: false,
        duration_ms: i,
      }));
    await t.db.knex("webhook_delivery_attempts").insert(rows(a.id, da.id, 230));
    await t.db.knex("webhook_delivery_attempts").insert(rows(b.id, db.id, 20));
    expect(await pruneWebhookAttempts(t.db.knex)).toBeGreaterThanOrEqual(30);
    const kept = await t.db
      .knex("webhook_delivery_attempts")
      .where({ endpoint_id: a.id })
      .orderBy("id")
      .pluck("duration_ms");
    expect(kept).toHaveLength(ATTEMPTS_KEPT);
    expect(kept[0]).toBe(30);
    expect(await t.db.knex("webhook_delivery_attempts").where({ endpoint_id: b.id }).count("* as n")).toEqual([
      { n: 20 },
    ]);
  });

  it("deactivates an endpoint failing for 5 days and mails the notification channels", async () => {
    const { organizationId } = await createOrg(t.db.knex);
    await t.db.knex("notification_channels").insert({
      id: `nch_${Date.now()}`,
      organization_id: organizationId,
      type: "email",
      name: "ops",
      target: "ops@example.test",
    });
    const hook = await insertWebhook(t.db.knex, organizationId, "https://127.0.0.1:9/down");
    // A failure streak that began 4 days ago: the endpoint stays active.
    await t.db
      .knex("webhook_endpoints")
      .where({ id: hook.id })
      .update({ failing_since: new Date(Date.now() - 4 * 86_400_000) });
    const first = await insertDelivery(hook.id, organizationId);
    const services = t.skiff.services;
    expect(await attemptDelivery(services, services.log, first.id, 3, false)).toMatchObject({
      kind: "failed",
      final: true,
    });
    expect(await t.db.knex("webhook_endpoints").where({ id: hook.id }).first()).toMatchObject({ isActive: true });
    // Past 5 days: set inactive, other pending deliveries cancelled, channels told.
    await t.db
      .knex("webhook_endpoints")
      .where({ id: hook.id })
      .update({ failing_since: new Date(Date.now() - 5 * 86_400_000 - 1000) });
    const second = await insertDelivery(hook.id, organizationId);
    const waiting = await insertDelivery(hook.id, organizationId);
    expect(await attemptDelivery(services, services.log, second.id, 3, false)).toMatchObject({
      kind: "failed",
      final: true,
    });
    expect(await t.db.knex("webhook_endpoints").where({ id: hook.id }).first()).toMatchObject({ isActive: false });
    expect(await t.db.knex("webhook_deliveries").where({ id: waiting.id }).first()).toMatchObject({
      status: "cancelled",
    });
    await drainJobs(t.db.knex);
    const mail = await t.db.knex("mail_outbox").where({ to: "ops@example.test" }).first();
    expect(mail.subject).toContain("deactivated");
    expect(mail.text).toContain(hook.id);
  });

  it("redelivers the stored body under the same delivery id, as a new series", async () => {
    const receiver = await startHttpsReceiver({ behaviour: { status: 200 } });
    try {
      const { organizationId, owner } = await createOrg(t.db.knex);
      const hook = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/again`);
      const stored = await insertDelivery(hook.id, organizationId, "failed");
      const orgId = await orgNumber(t.db.knex, organizationId);
      const res = await rest(
        t.skiff.url,
        "POST",
        `/api/v1/orgs/${orgId}/webhooks/${hook.id}/deliveries/${stored.id}/redeliver`,
        owner.apiKey,
      );
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ delivery_id: stored.id });
      const [req] = await receiver.waitForRequests(1);
      expect(req!.body.toString()).toBe(stored.body);
      expect(req!.headers["x-webhook-delivery"]).toBe(stored.id);
      const unknown = await rest(
        t.skiff.url,
        "POST",
        `/api/v1/orgs/${orgId}/webhooks/${hook.id}/deliveries/dlv_0000000000000000/redeliver`,
        owner.apiKey,
      );
      expect(unknown.status).toBe(404);
      // An inactive endpoint gets no redelivery (only the test ping reaches it): 400, nothing sent.
      await t.db.knex("webhook_endpoints").where({ id: hook.id }).update({ is_active: false });
      const inactive = await rest(
        t.skiff.url,
        "POST",
        `/api/v1/orgs/${orgId}/webhooks/${hook.id}/deliveries/${stored.id}/redeliver`,
        owner.apiKey,
      );
      expect(inactive.status).toBe(400);
      expect(JSON.stringify(inactive.body)).toContain("inactive");
      await drainJobs(t.db.knex);
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("honours a `webhooks.deliver` job of the previous release: its delivery continues its series in the queue", async () => {
    let n = 0;
    const receiver = await startHttpsReceiver();
    receiver.respond(() => ({ status: ++n === 1 ? 500 : 200 }));
    try {
      const { organizationId } = await createOrg(t.db.knex);
      const hook = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/legacy`);
      // As the previous release left it: attempt 1 made and logged, its retry queued as a job (attempt 2).
      const stored = await insertDelivery(hook.id, organizationId);
      await t.db.knex("webhook_deliveries").where({ id: stored.id }).update({ attempts: 1 });
      await addJob(t.db.knex, {
        name: DELIVER_JOB,
        payload: { deliveryId: stored.id, force: false, _retry: { attempt: 2 } },
        maxAttempts: 1,
        jobKey: deliveryJobKey(stored.id),
      });
      const got = await receiver.waitForRequests(2, 15_000);
      expect(got.map((r) => r.body.toString())).toEqual([stored.body, stored.body]);
      await drainJobs(t.db.knex);
      const deadline = Date.now() + 5_000;
      let row = await t.db.knex("webhook_deliveries").where({ id: stored.id }).first();
      while (row.status === "pending" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        row = await t.db.knex("webhook_deliveries").where({ id: stored.id }).first();
      }
      expect(row).toMatchObject({ status: "delivered", attempts: 3 });
      const log = await t.db.knex("webhook_delivery_attempts").where({ delivery_id: stored.id }).orderBy("id");
      expect(log.map((e) => [e.attempt, e.success])).toEqual([
        [2, false],
        [3, true],
      ]);
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
