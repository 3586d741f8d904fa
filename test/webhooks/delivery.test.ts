/**
 * Webhook delivery (spec "Delivery to the receiver"): a real HTTPS receiver on loopback (allowed through
 * SKIFF_OUTBOUND_ALLOW, test CA through NODE_EXTRA_CA_CERTS) verifies every request exactly as the receiver
 * rules say; retries come 1 s then 4 s after a failure (never earlier; later only by a loaded machine's delay), 3
 * attempts then stop; a 2xx on the second attempt stops the series; the same delivery_id and the same bytes on every attempt; a host whose DNS answer
 * turns private is refused before the attempt and logged; deactivating cancels pending attempts.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { lockWaiters } from "../helpers/lock-waiters.ts";
import { createOrg } from "../helpers/seed.ts";
import { captureLogs, startTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, receiverAccepts, rest } from "./webhook-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let receiver: HttpsReceiver;
let dns: TestDnsServer;
/** Answer of hooks.turns-private.test: public at first, private afterwards. */
let privateNow = false;
/** The server's warnings and errors. */
const logs = captureLogs("warn");

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  dns = await startDnsServer((name, type) => {
    if (type !== "A") return [];
    if (name === "hooks.turns-private.test") return privateNow ? ["10.0.0.5"] : ["93.184.215.14"];
    if (name === "hooks.private.test") return ["192.168.1.20"];
    if (name === "localhost" || name.endsWith(".localhost")) return ["127.0.0.1"];
    return [];
  });
  db = await createTestDatabase();
  skiff = await startTestServer(
    db.url,
    { SKIFF_OUTBOUND_ALLOW: "127.0.0.1" },
    { outboundLookup: dns.lookup },
    logs.logger,
  );
}, 60_000);
afterAll(async () => {
  await skiff?.stop();
  await receiver?.close();
  await dns?.close();
  await db?.drop();
});

/** Publishes `course_completed` to `organizationId` with the owner's key. @returns the deliveries. */
async function publish(organizationId: string, apiKey: string) {
  const orgId = await orgNumber(db.knex, organizationId);
  const res = await rest(skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, apiKey, {
    event: "course_completed",
    data: COURSE_COMPLETED,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.deliveries as Array<{ webhook_uuid: string; delivery_id: string }>;
}

/**
 * The delivery row once its series ended (`delivered`, `failed` or `cancelled`). (drainJobs cannot tell: a
 * running `waits` attempt already counts its one attempt.)
 */
async function settled(deliveryId: string, timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.knex("webhook_deliveries").where({ id: deliveryId }).first();
    if (row.status !== "pending" || Date.now() > deadline) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Requests of the receiver at `path`, with their arrival times. */
function arrivalsAt(path: string) {
  return receiver.requests.filter((r) => r.path === path);
}

const arrivals = new Map<string, number[]>();
function answerPerPath(plan: Record<string, number[]>) {
  receiver.respond((req) => {
    const times = arrivals.get(req.path) ?? [];
    times.push(Date.now());
    arrivals.set(req.path, times);
    const statuses = plan[req.path] ?? [200];
    return { status: statuses[Math.min(times.length - 1, statuses.length - 1)], body: "answer" };
  });
}

describe("webhook delivery", () => {
  it("signs the stored envelope, retries after 1 s then 4 s, stops after 3 attempts, same delivery_id and bytes", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const hook = await insertWebhook(db.knex, organizationId, `${receiver.url}/fail-always`);
    answerPerPath({ "/fail-always": [500] });
    const [delivery] = await publish(organizationId, owner.apiKey);
    expect(delivery!.webhook_uuid).toBe(hook.id);
    expect(delivery!.delivery_id).toMatch(/^dlv_[0-9a-f]{16}$/);

    await receiver.waitForRequests(receiver.requests.length, 100).catch(() => {});
    const deadline = Date.now() + 10_000;
    while (arrivalsAt("/fail-always").length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const got = arrivalsAt("/fail-always");
    expect(got).toHaveLength(3);
    const times = arrivals.get("/fail-always")!;
    const waits = [times[1]! - times[0]!, times[2]! - times[1]!];
    console.info(`webhook retry waits measured: ${waits.join(" ms, ")} ms`);
    // Never early (the schedule), and late only by what a loaded machine adds to a job's start and a request.
    expect(waits[0]).toBeGreaterThanOrEqual(950);
    expect(waits[0]).toBeLessThanOrEqual(2500);
    expect(waits[1]).toBeGreaterThanOrEqual(3950);
    expect(waits[1]).toBeLessThanOrEqual(5500);

    const stored = await db.knex("webhook_deliveries").where({ id: delivery!.delivery_id }).first();
    for (const req of got) {
      expect(req.method).toBe("POST");
      expect(req.body.toString()).toBe(stored.body);
      expect(receiverAccepts(hook.secret, req.body, req.headers["x-webhook-signature"])).toBe(true);
      expect(req.headers["x-webhook-delivery"]).toBe(delivery!.delivery_id);
      expect(req.headers["x-webhook-event"]).toBe("course_completed");
      expect(req.headers["user-agent"]).toBe("Skiff-Webhooks/1.0");
      expect(req.headers["content-type"]).toBe("application/json");
      // Standard Webhooks headers verify with the reference library (key = the bytes after whsec_).
      const wh = new Webhook(Buffer.from(hook.secret.slice(6), "base64url"), { format: "raw" });
      expect(wh.verify(req.body.toString(), req.headers as Record<string, string>)).toEqual(JSON.parse(stored.body));
    }
    const envelope = JSON.parse(got[0]!.body.toString());
    expect(envelope).toEqual({
      event: "course_completed",
      delivery_id: delivery!.delivery_id,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      org_id: await orgNumber(db.knex, organizationId),
      data: COURSE_COMPLETED,
    });
    // A tampered body fails the receiver's check.
    const tampered = Buffer.from(got[0]!.body.toString().replace("Compilers", "Compilerz"));
    expect(receiverAccepts(hook.secret, tampered, got[0]!.headers["x-webhook-signature"])).toBe(false);

    const after = await settled(delivery!.delivery_id);
    expect(after).toMatchObject({ status: "failed", attempts: 3 });
    const log = await rest(
      skiff.url,
      "GET",
      `/api/v1/orgs/${await orgNumber(db.knex, organizationId)}/webhooks/${hook.id}/deliveries`,
      owner.apiKey,
    );
    expect(log.status).toBe(200);
    expect(log.body.map((e: { attempt: number }) => e.attempt)).toEqual([3, 2, 1]);
    for (const entry of log.body) {
      expect(entry).toMatchObject({
        delivery_id: delivery!.delivery_id,
        event: "course_completed",
        success: false,
        response_status: 500,
        response_body: "answer",
        error_message: "HTTP 500",
      });
      expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(arrivalsAt("/fail-always")).toHaveLength(3);
  }, 30_000);

  it("stops the series at a 2xx on the second attempt", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    await insertWebhook(db.knex, organizationId, `${receiver.url}/second-ok`);
    answerPerPath({ "/second-ok": [503, 204] });
    const [delivery] = await publish(organizationId, owner.apiKey);
    const deadline = Date.now() + 5_000;
    while (arrivalsAt("/second-ok").length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await settled(delivery!.delivery_id);
    const got = arrivalsAt("/second-ok");
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers["x-webhook-delivery"])).toEqual([delivery!.delivery_id, delivery!.delivery_id]);
    const row = await db.knex("webhook_deliveries").where({ id: delivery!.delivery_id }).first();
    expect(row).toMatchObject({ status: "delivered", attempts: 2 });
    const attempts = await db
      .knex("webhook_delivery_attempts")
      .where({ delivery_id: delivery!.delivery_id })
      .orderBy("id");
    expect(attempts.map((a) => [a.attempt, a.success, a.responseStatus])).toEqual([
      [1, false, 503],
      [2, true, 204],
    ]);
    await new Promise((r) => setTimeout(r, 4500));
    expect(arrivalsAt("/second-ok")).toHaveLength(2);
  }, 20_000);

  it("delivers an event to many endpoints once each, each attempt logged once (batched writes), NUL bytes stored", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const hooks = await Promise.all(
      Array.from({ length: 25 }, (_, i) => insertWebhook(db.knex, organizationId, `${receiver.url}/many/${i}`)),
    );
    // A receiver may answer any bytes; PostgreSQL text cannot hold NUL.
    receiver.respond((req) =>
      req.path.startsWith("/many/") ? { status: 200, body: "ok\u0000done" } : { status: 200 },
    );
    const deliveries = await publish(organizationId, owner.apiKey);
    expect(deliveries.map((d) => d.webhook_uuid).sort()).toEqual(hooks.map((h) => h.id).sort());
    for (const d of deliveries)
      expect(await settled(d.delivery_id)).toMatchObject({ status: "delivered", attempts: 1 });
    const logged = await db
      .knex("webhook_delivery_attempts")
      .whereIn(
        "delivery_id",
        deliveries.map((d) => d.delivery_id),
      )
      .select("delivery_id", "attempt", "success", "response_body");
    expect(logged).toHaveLength(25);
    expect(new Set(logged.map((l) => l.deliveryId)).size).toBe(25);
    for (const l of logged) expect(l).toMatchObject({ attempt: 1, success: true, responseBody: "ok\ufffddone" });
    expect(receiver.requests.filter((r) => r.path.startsWith("/many/"))).toHaveLength(25);
  });

  it("treats a 3xx as a failure (redirects are not followed)", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    await insertWebhook(db.knex, organizationId, `${receiver.url}/redirect`);
    receiver.respond((req) =>
      req.path === "/redirect" ? { status: 302, headers: { location: "https://127.0.0.1:1/" } } : { status: 200 },
    );
    const [delivery] = await publish(organizationId, owner.apiKey);
    const deadline = Date.now() + 5_000;
    let first: { success: boolean; responseStatus: number } | undefined;
    while (!first && Date.now() < deadline) {
      first = await db.knex("webhook_delivery_attempts").where({ delivery_id: delivery!.delivery_id }).first();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(first).toMatchObject({ success: false, responseStatus: 302 });
    await db.knex("webhook_deliveries").where({ id: delivery!.delivery_id }).update({ status: "cancelled" });
  });

  it("refuses a host whose DNS answer is private at save time, and before every attempt (logged)", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const orgId = await orgNumber(db.knex, organizationId);
    const refused = await rest(skiff.url, "POST", `/api/v1/orgs/${orgId}/webhooks`, owner.apiKey, {
      url: "https://hooks.private.test/in",
      events: ["course_completed"],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details.fieldErrors.url[0]).toContain("blocked address 192.168.1.20 (private)");

    privateNow = false;
    const created = await rest(skiff.url, "POST", `/api/v1/orgs/${orgId}/webhooks`, owner.apiKey, {
      url: "https://hooks.turns-private.test/in",
      events: ["course_completed"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    privateNow = true;
    const test = await rest(
      skiff.url,
      "POST",
      `/api/v1/orgs/${orgId}/webhooks/${created.body.webhook_uuid}/test`,
      owner.apiKey,
    );
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({
      event: "ping",
      attempt: 1,
      success: false,
      response_status: null,
      error_message: "blocked address 10.0.0.5 (private)",
    });
    // Nothing was dialled: no attempt can reach 10.0.0.5; the series goes on and is logged each time.
    await db.knex("webhook_deliveries").where({ id: test.body.delivery_id }).update({ status: "cancelled" });
  }, 20_000);

  it("test pings an inactive endpoint and answers the first attempt; deactivating cancels pending attempts", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const orgId = await orgNumber(db.knex, organizationId);
    const hook = await insertWebhook(db.knex, organizationId, `${receiver.url}/inactive`, ["course_completed"], false);
    receiver.respond((req) => ({ status: req.path === "/inactive" ? 200 : 500, body: "pong" }));
    const test = await rest(skiff.url, "POST", `/api/v1/orgs/${orgId}/webhooks/${hook.id}/test`, owner.apiKey);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({
      event: "ping",
      attempt: 1,
      success: true,
      response_status: 200,
      response_body: "pong",
    });
    const ping = arrivalsAt("/inactive").at(-1)!;
    expect(JSON.parse(ping.body.toString()).data.message).toEqual(expect.any(String));
    expect(receiverAccepts(hook.secret, ping.body, ping.headers["x-webhook-signature"])).toBe(true);
    // An inactive endpoint gets no event deliveries.
    expect(await publish(organizationId, owner.apiKey)).toEqual([]);

    // Active, failing: deactivate after the first attempt; the retry never comes.
    const failing = await insertWebhook(db.knex, organizationId, `${receiver.url}/cancel-me`);
    receiver.respond({ status: 500 });
    const [delivery] = await publish(organizationId, owner.apiKey);
    const deadline = Date.now() + 5_000;
    while (arrivalsAt("/cancel-me").length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    const off = await rest(skiff.url, "PUT", `/api/v1/orgs/${orgId}/webhooks/${failing.id}`, owner.apiKey, {
      is_active: false,
    });
    expect(off.status).toBe(200);
    expect(off.body.is_active).toBe(false);
    await new Promise((r) => setTimeout(r, 1800));
    expect(arrivalsAt("/cancel-me")).toHaveLength(1);
    expect(await db.knex("webhook_deliveries").where({ id: delivery!.delivery_id }).first()).toMatchObject({
      status: "cancelled",
    });
  }, 20_000);

  it("keeps a delivery cancelled while its attempt was in flight cancelled when that attempt then fails", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const orgId = await orgNumber(db.knex, organizationId);
    const hook = await insertWebhook(db.knex, organizationId, `${receiver.url}/cancel-in-flight`);
    receiver.respond((req) => (req.path === "/cancel-in-flight" ? { status: 500, delayMs: 1500 } : { status: 200 }));
    const [delivery] = await publish(organizationId, owner.apiKey);
    const deadline = Date.now() + 5_000;
    while (arrivalsAt("/cancel-in-flight").length < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    // The attempt is waiting for its answer: deactivating cancels the delivery now.
    const off = await rest(skiff.url, "PUT", `/api/v1/orgs/${orgId}/webhooks/${hook.id}`, owner.apiKey, {
      is_active: false,
    });
    expect(off.status).toBe(200);
    const logged = Date.now() + 10_000;
    while (!(await db.knex("webhook_delivery_attempts").where({ delivery_id: delivery!.delivery_id }).first())) {
      expect(Date.now()).toBeLessThan(logged);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await db.knex("webhook_deliveries").where({ id: delivery!.delivery_id }).first()).toMatchObject({
      status: "cancelled",
      attempts: 1,
    });
  }, 20_000);

  it("logs nothing for an attempt whose endpoint is deleted while its outcome is written, and the job ends", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const hook = await insertWebhook(db.knex, organizationId, `${receiver.url}/deleted-in-flight`);
    // A success ending a failure streak: the outcome is written after locking the endpoint.
    await db.knex("webhook_endpoints").where({ id: hook.id }).update({ failing_since: new Date() });
    receiver.respond((req) => (req.path === "/deleted-in-flight" ? { status: 200, delayMs: 500 } : { status: 200 }));
    const [delivery] = await publish(organizationId, owner.apiKey);
    const deadline = Date.now() + 5_000;
    while (arrivalsAt("/deleted-in-flight").length < 1) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 10));
    }
    // The deletion (cascading to the delivery) holds its locks while the attempt's outcome waits for the endpoint's
    // lock; the deletion commits under it.
    const deletion = await db.knex.transaction();
    try {
      await deletion("webhook_endpoints").where({ id: hook.id }).delete();
      await lockWaiters(db.knex, 1, '%from "webhook_endpoints"%for update%');
      await deletion.commit();
    } finally {
      if (!deletion.isCompleted()) await deletion.rollback();
    }
    const jobOf = () =>
      db.knex.raw("select 1 from graphile_worker._private_jobs where payload->>'deliveryId' = ?", [
        delivery!.delivery_id,
      ]);
    const ended = Date.now() + 10_000;
    while ((await jobOf()).rows.length > 0) {
      expect(Date.now()).toBeLessThan(ended);
      await new Promise((r) => setTimeout(r, 20));
    }
    // Other tests' deliveries may still be failing by design: only this one's database error would fail the job.
    expect(logs.lines.filter((line) => JSON.stringify(line.err ?? "").includes("foreign key"))).toEqual([]);
    expect(await db.knex("webhook_delivery_attempts").where({ delivery_id: delivery!.delivery_id })).toEqual([]);
  }, 30_000);

  it("regenerate-secret: the next attempt signs with the new secret", async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const orgId = await orgNumber(db.knex, organizationId);
    const hook = await insertWebhook(db.knex, organizationId, `${receiver.url}/rotate`);
    receiver.respond({ status: 200 });
    const rotated = await rest(
      skiff.url,
      "POST",
      `/api/v1/orgs/${orgId}/webhooks/${hook.id}/regenerate-secret`,
      owner.apiKey,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    expect(rotated.body).not.toHaveProperty("has_secret");
    await publish(organizationId, owner.apiKey);
    const deadline = Date.now() + 5_000;
    while (arrivalsAt("/rotate").length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const req = arrivalsAt("/rotate")[0]!;
    expect(receiverAccepts(rotated.body.secret, req.body, req.headers["x-webhook-signature"])).toBe(true);
    expect(receiverAccepts(hook.secret, req.body, req.headers["x-webhook-signature"])).toBe(false);
  });
});
