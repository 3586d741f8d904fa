/**
 * Recovery after downtime and `410 Gone` (docs/webhooks.md): `POST …/webhooks/{uuid}/recover` and
 * `recoverWebhookDeliveries` queue again exactly the endpoint's deliveries of the window that did not end delivered
 * (same delivery_id, same bytes, to a real HTTPS receiver on loopback), spread at SKIFF_WEBHOOK_RECOVER_RATE, once
 * per window while the recovery runs; thousands are queued in one call; a receiver answering 410 deactivates its
 * endpoint at once, cancels its pending deliveries and mails the notification channels.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newDeliveryId } from "../../src/modules/webhooks/webhook-emit.ts";
import { endpointSlots } from "../../src/modules/webhooks/webhook-endpoint-slots.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

/** Recovered first attempts per second in this file (so a recovery is still running when asked again). */
const RATE = 2;
const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1", SKIFF_WEBHOOK_RECOVER_RATE: String(RATE) });

let receiver: HttpsReceiver;
beforeAll(async () => {
  // Slow answers on /recover keep a recovery running while it is asked again.
  receiver = await startHttpsReceiver();
  receiver.respond((req) => (req.path === "/recover" ? { status: 200, delayMs: 800 } : { status: 200 }));
});
afterAll(async () => {
  await receiver?.close();
});

const HOUR = 3_600_000;

/** Inserts a delivery of `endpointId` created `agoMs` ago with status `status`. @returns its id and bytes. */
async function insertDelivery(endpointId: string, organizationId: string, status: string, agoMs: number) {
  const id = newDeliveryId();
  const createdAt = new Date(Date.now() - agoMs);
  const body = JSON.stringify({
    event: "course_completed",
    delivery_id: id,
    timestamp: createdAt.toISOString(),
    org_id: 1,
    data: COURSE_COMPLETED,
  });
  await t.db.knex("webhook_deliveries").insert({
    id,
    endpoint_id: endpointId,
    organization_id: organizationId,
    event: "course_completed",
    body,
    status,
    attempts: status === "pending" ? 0 : 3,
    created_at: createdAt,
  });
  return { id, body };
}

/** The delivery rows `ids` once none is pending (or after 15 s). */
async function settledAll(ids: string[], timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await t.db.knex("webhook_deliveries").whereIn("id", ids).select("id", "status", "attempts");
    if (rows.every((r) => r.status !== "pending") || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("webhook recovery", () => {
  it("sends again the window's failed and cancelled deliveries, same id and bytes, paced, once per window", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    const hook = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/recover`);
    const orgId = await orgNumber(t.db.knex, organizationId);
    const failedIn = await insertDelivery(hook.id, organizationId, "failed", 3 * HOUR);
    const cancelledIn = await insertDelivery(hook.id, organizationId, "cancelled", 2 * HOUR);
    const failedIn2 = await insertDelivery(hook.id, organizationId, "failed", 1.5 * HOUR);
    const deliveredIn = await insertDelivery(hook.id, organizationId, "delivered", 2.5 * HOUR);
    const failedBefore = await insertDelivery(hook.id, organizationId, "failed", 10 * HOUR);
    const failedAfter = await insertDelivery(hook.id, organizationId, "failed", 0.5 * HOUR);
    // Another endpoint's failed delivery in the window is not this recovery's.
    const other = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/other`);
    const otherFailed = await insertDelivery(other.id, organizationId, "failed", 2 * HOUR);
    const since = new Date(Date.now() - 4 * HOUR).toISOString();
    const until = new Date(Date.now() - HOUR).toISOString();
    const path = `/api/v1/orgs/${orgId}/webhooks/${hook.id}/recover`;
    const before = receiver.requests.length;

    const first = await rest(t.skiff.url, "POST", path, owner.apiKey, { since, until });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({
      recovery_id: expect.stringMatching(/^whrec_/),
      webhook_uuid: hook.id,
      since,
      until,
      queued: 3,
      rate_per_second: RATE,
      already_running: false,
    });
    // The first attempts are spread at RATE per second, oldest delivery first: each due at its turn in the queue.
    const queued = (await t.db
      .knex("webhook_deliveries")
      .whereIn(
        "id",
        [failedIn, cancelledIn, failedIn2].map((d) => d.id),
      )
      .where({ attempts: 0 })
      .select("id", "next_attempt_at")) as Array<{ id: string; nextAttemptAt: Date | null }>;
    const runAt = new Map(queued.map((d) => [d.id, d.nextAttemptAt?.getTime()]));
    const last = runAt.get(failedIn2.id);
    expect(last).toBeDefined();
    const middle = runAt.get(cancelledIn.id);
    if (middle !== undefined) expect(last! - middle).toBe(1000 / RATE);

    // Asked again while it runs: the same recovery, nothing queued twice (REST and GraphQL alike).
    const again = await rest(t.skiff.url, "POST", path, owner.apiKey, { since, until });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ recovery_id: first.body.recovery_id, queued: 3, already_running: true });
    const viaGraphql = await gql(
      t.skiff.url,
      `mutation($org: ID!, $id: ID!, $since: DateTime!, $until: DateTime) {
        recoverWebhookDeliveries(organizationId: $org, webhookUuid: $id, since: $since, until: $until) {
          recoveryId queued alreadyRunning } }`,
      { org: String(orgId), id: hook.id, since, until },
      { apiKey: owner.apiKey },
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(viaGraphql.data?.recoverWebhookDeliveries).toEqual({
      recoveryId: first.body.recovery_id,
      queued: 3,
      alreadyRunning: true,
    });

    // Asked without `until` (now), then again with the window as answered: the same recovery.
    const open = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/recover`);
    const openFailed = [
      await insertDelivery(open.id, organizationId, "failed", HOUR),
      await insertDelivery(open.id, organizationId, "failed", HOUR),
    ];
    const openPath = `/api/v1/orgs/${orgId}/webhooks/${open.id}/recover`;
    const untilNow = await rest(t.skiff.url, "POST", openPath, owner.apiKey, { since });
    expect(untilNow.body).toMatchObject({ queued: 2, already_running: false });
    const asAnswered = await rest(t.skiff.url, "POST", openPath, owner.apiKey, {
      since: untilNow.body.since,
      until: untilNow.body.until,
    });
    expect(asAnswered.body).toMatchObject({ recovery_id: untilNow.body.recovery_id, already_running: true });

    const rows = await settledAll([failedIn.id, cancelledIn.id, failedIn2.id, ...openFailed.map((d) => d.id)]);
    expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered", "delivered", "delivered"]);
    const got = receiver.requests.slice(before).filter((r) => r.path === "/recover");
    // Each sent again once, same id and bytes (the order of arrival is the workers'; the pacing is the run_at above).
    const sent = new Map(got.map((r) => [r.headers["x-webhook-delivery"] as string, r.body.toString()]));
    expect(got).toHaveLength(5);
    expect(sent).toEqual(new Map([failedIn, cancelledIn, failedIn2, ...openFailed].map((d) => [d.id, d.body])));
    for (const untouched of [deliveredIn, failedBefore, failedAfter, otherFailed]) {
      const row = await t.db.knex("webhook_deliveries").where({ id: untouched.id }).first();
      expect(row.status).not.toBe("pending");
      expect(row.recoveryId).toBeNull();
    }
    expect(receiver.requests.slice(before).filter((r) => r.path === "/other")).toHaveLength(0);

    // Once it ended, the same window holds nothing undelivered: a new recovery queues 0.
    const done = await rest(t.skiff.url, "POST", path, owner.apiKey, { since, until });
    expect(done.body).toMatchObject({ queued: 0, already_running: false });
    expect(done.body.recovery_id).not.toBe(first.body.recovery_id);
  }, 30_000);

  it("answers 400 for a bad window or an inactive endpoint, 404 for another organization's endpoint", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    const hook = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/bad`);
    const inactive = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/off`, undefined, false);
    const orgId = await orgNumber(t.db.knex, organizationId);
    const path = `/api/v1/orgs/${orgId}/webhooks/${hook.id}/recover`;
    const now = Date.now();
    const reversed = await rest(t.skiff.url, "POST", path, owner.apiKey, {
      since: new Date(now - HOUR).toISOString(),
      until: new Date(now - 2 * HOUR).toISOString(),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.details.fieldErrors.since).toBeDefined();
    const future = await rest(t.skiff.url, "POST", path, owner.apiKey, {
      since: new Date(now - HOUR).toISOString(),
      until: new Date(now + HOUR).toISOString(),
    });
    expect(future.status).toBe(400);
    expect(future.body.details.fieldErrors.until).toBeDefined();
    // Not a date, no such day, no time zone offset: each the field's own 400.
    for (const since of ["yesterday", "2026-02-30T00:00:00Z", "2026-11-29T05:00:00"]) {
      const notADate = await rest(t.skiff.url, "POST", path, owner.apiKey, { since });
      expect(notADate.status, since).toBe(400);
      expect(notADate.body.details.fieldErrors.since, since).toBeDefined();
    }
    const off = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/webhooks/${inactive.id}/recover`, owner.apiKey, {
      since: new Date(now - HOUR).toISOString(),
    });
    expect(off.status).toBe(400);
    expect(off.body.details.fieldErrors.webhookUuid).toBeDefined();
    const stranger = await createOrg(t.db.knex);
    const hidden = await rest(
      t.skiff.url,
      "POST",
      path.replace(String(orgId), String(await orgNumber(t.db.knex, stranger.organizationId))),
      stranger.owner.apiKey,
      {
        since: new Date(now - HOUR).toISOString(),
      },
    );
    expect(hidden.status).toBe(404);
  });

  it("queues a window of thousands in one call (batched), each once", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    // Nothing listens on port 9: the few attempts that start during the test fail fast.
    const hook = await insertWebhook(t.db.knex, organizationId, "https://127.0.0.1:9/down");
    const count = 1_200;
    const base = Date.now() - 2 * HOUR;
    await t.db.knex.batchInsert(
      "webhook_deliveries",
      Array.from({ length: count }, (_, i) => {
        const id = newDeliveryId();
        return {
          id,
          endpoint_id: hook.id,
          organization_id: organizationId,
          event: "course_completed",
          body: JSON.stringify({ event: "course_completed", delivery_id: id, data: COURSE_COMPLETED }),
          status: "failed",
          attempts: 3,
          created_at: new Date(base + i),
        };
      }),
      500,
    );
    const orgId = await orgNumber(t.db.knex, organizationId);
    const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/webhooks/${hook.id}/recover`, owner.apiKey, {
      since: new Date(base - 1).toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.queued).toBe(count);
    const recovered = await t.db
      .knex("webhook_deliveries")
      .where({ endpoint_id: hook.id, recovery_id: res.body.recovery_id })
      .count("* as n");
    expect(recovered).toEqual([{ n: count }]);
    // Each queued once, at its turn (but the few already run at RATE per second).
    const due = (await t.db
      .knex("webhook_deliveries")
      .where({ endpoint_id: hook.id, status: "pending", attempts: 0 })
      .whereNotNull("next_attempt_at")
      .select(t.db.knex.raw("count(*)::int as n, count(distinct next_attempt_at)::int as turns"))) as Array<{
      n: number;
      turns: number;
    }>;
    expect(due[0]!.n).toBeGreaterThan(count - 50);
    expect(due[0]!.turns).toBe(due[0]!.n);
    // Deactivating the endpoint cancels the recovered deliveries still waiting.
    const off = await rest(t.skiff.url, "PUT", `/api/v1/orgs/${orgId}/webhooks/${hook.id}`, owner.apiKey, {
      is_active: false,
    });
    expect(off.status).toBe(200);
    expect(
      await t.db
        .knex("webhook_deliveries")
        .where({ endpoint_id: hook.id, status: "pending" })
        .whereNotNull("next_attempt_at")
        .count("* as n"),
    ).toEqual([{ n: 0 }]);
  }, 60_000);

  it("deactivates an endpoint at once when its receiver answers 410 Gone, cancels its queue, mails the channels", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    await t.db.knex("notification_channels").insert({
      id: `nch_${Date.now()}`,
      organization_id: organizationId,
      type: "email",
      name: "ops",
      target: "gone@example.test",
    });
    const gone = await startHttpsReceiver({ behaviour: { status: 410, body: "gone" } });
    try {
      const hook = await insertWebhook(t.db.knex, organizationId, `${gone.url}/gone`);
      const waiting = await insertDelivery(hook.id, organizationId, "pending", 1000);
      const orgId = await orgNumber(t.db.knex, organizationId);
      const published = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
        event: "course_completed",
        data: COURSE_COMPLETED,
      });
      expect(published.status).toBe(202);
      const [delivery] = published.body.deliveries as Array<{ delivery_id: string }>;
      const [row] = await settledAll([delivery!.delivery_id]);
      // One attempt: a 410 ends the series at once (no retry after 1 s).
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
      expect(await t.db.knex("webhook_endpoints").where({ id: hook.id }).first()).toMatchObject({ isActive: false });
      expect(await t.db.knex("webhook_deliveries").where({ id: waiting.id }).first()).toMatchObject({
        status: "cancelled",
      });
      const log = await t.db.knex("webhook_delivery_attempts").where({ delivery_id: delivery!.delivery_id });
      expect(log.map((e) => [e.attempt, e.responseStatus, e.errorMessage])).toEqual([[1, 410, "HTTP 410"]]);
      // Recorded in the organization's audit log, actor SYSTEM (docs/audit-log.md).
      const audit = await t.db
        .knex("audit_events")
        .where({ organizationId, action: "system.webhook_endpoint_deactivated_gone" });
      expect(audit).toMatchObject([{ actorKind: "SYSTEM", surface: "SYSTEM", targetIds: [hook.id], outcome: "ok" }]);
      await drainJobs(t.db.knex);
      const mail = await t.db.knex("mail_outbox").where({ to: "gone@example.test" }).first();
      expect(mail.subject).toContain("deactivated");
      expect(mail.text).toContain("410 Gone");
      expect(mail.text).toContain(hook.id);
      await new Promise((r) => setTimeout(r, 1500));
      expect(gone.requests.filter((r) => r.path === "/gone")).toHaveLength(1);
    } finally {
      await gone.close();
    }
  }, 30_000);

  it("deactivates once when attempts in flight all meet 410: every request logged, one entry, one mail (owners)", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex); // no notification channel: the owners are mailed
    const gone = await startHttpsReceiver({ behaviour: { status: 410, body: "gone", delayMs: 150 } });
    try {
      const hook = await insertWebhook(t.db.knex, organizationId, `${gone.url}/gone-together`);
      const orgId = await orgNumber(t.db.knex, organizationId);
      const published = await Promise.all(
        Array.from({ length: 8 }, () =>
          rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
            event: "course_completed",
            data: COURSE_COMPLETED,
          }),
        ),
      );
      const ids = published.flatMap((p) =>
        (p.body.deliveries as Array<{ delivery_id: string }>).map((d) => d.delivery_id),
      );
      await settledAll(ids);
      await drainJobs(t.db.knex); // attempts in flight when their delivery was cancelled end too
      const rows = await t.db.knex("webhook_deliveries").whereIn("id", ids).select("id", "status", "attempts");
      expect(await t.db.knex("webhook_endpoints").where({ id: hook.id }).first()).toMatchObject({ isActive: false });
      // The ledger: each request the receiver saw is one logged attempt of a failed delivery; the rest were cancelled
      // before a request.
      const received = gone.requests.filter((r) => r.path === "/gone-together");
      const attempts = await t.db.knex("webhook_delivery_attempts").whereIn("delivery_id", ids);
      expect(attempts).toHaveLength(received.length);
      // Only the attempts already in flight when the first 410 came back reached it: none started after.
      expect(received.length).toBeLessThanOrEqual(endpointSlots(t.skiff.services.config));
      expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(attempts.map((a) => a.deliveryId)));
      for (const row of rows) {
        const sent = attempts.some((a) => a.deliveryId === row.id);
        // A delivery cancelled while its attempt was in flight keeps its status; the attempt is counted all the same.
        expect(row.attempts, row.id).toBe(sent ? 1 : 0);
        expect(sent ? ["failed", "cancelled"] : ["cancelled"], row.id).toContain(row.status);
      }
      const audit = await t.db
        .knex("audit_events")
        .where({ organizationId, action: "system.webhook_endpoint_deactivated_gone" });
      expect(audit).toHaveLength(1);
      const mails = await t.db.knex("mail_outbox").where({ to: owner.email });
      expect(mails.filter((m) => String(m.subject).includes("deactivated"))).toHaveLength(1);
    } finally {
      await gone.close();
    }
  }, 30_000);
});
