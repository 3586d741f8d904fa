/**
 * Standard Webhooks compatibility: secrets made by `createWebhook` are `whsec_` + standard base64,
 * so the official `standardwebhooks` package verifies real deliveries with its documented usage
 * (`new Webhook(secret).verify(payload, headers)`), for 200 new secrets, next to the spec's own `sha256=` check.
 * A secret generated before (base64url, with `-`/`_`) keeps signing with the same key.
 */
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, receiverAccepts, rest } from "./webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });

/** Waits until the receiver has `count` requests at paths starting with `prefix`. */
async function arrived(receiver: HttpsReceiver, prefix: string, count: number, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = receiver.requests.filter((r) => r.path.startsWith(prefix));
    if (got.length >= count || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("Standard Webhooks secrets", () => {
  it("200 new secrets: every real delivery verifies with `new Webhook(secret)` and with the sha256= check", async () => {
    const receiver = await startHttpsReceiver();
    try {
      // 10 organizations × 20 endpoints (the create limit is 20 per organization per hour).
      const secrets = new Map<string, string>();
      const orgs: Array<{ orgId: number; apiKey: string }> = [];
      for (let o = 0; o < 10; o++) {
        const { organizationId, owner } = await createOrg(t.db.knex);
        const orgId = await orgNumber(t.db.knex, organizationId);
        orgs.push({ orgId, apiKey: owner.apiKey });
        const created = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/webhooks`, owner.apiKey, {
              url: `${receiver.url}/std/${o}/${i}`,
              events: ["course_completed"],
            }),
          ),
        );
        for (const [i, res] of created.entries()) {
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          secrets.set(`/std/${o}/${i}`, res.body.secret);
        }
      }
      expect(secrets.size).toBe(200);
      for (const secret of secrets.values()) expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      // Today's generator (base64url) would put a `-` or `_` in most of 200 secrets: the sample covers both.
      expect([...secrets.values()].some((s) => /[+/]/.test(s))).toBe(true);

      for (const { orgId, apiKey } of orgs) {
        const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, apiKey, {
          event: "course_completed",
          data: COURSE_COMPLETED,
        });
        expect(res.status).toBe(202);
        expect(res.body.deliveries).toHaveLength(20);
      }
      const got = await arrived(receiver, "/std/", 200);
      expect(got).toHaveLength(200);
      let verified = 0;
      for (const req of got) {
        const secret = secrets.get(req.path)!;
        const body = req.body.toString();
        // The official package, as its README documents it: the `whsec_…` string itself.
        expect(new Webhook(secret).verify(body, req.headers as Record<string, string>)).toEqual(JSON.parse(body));
        // The spec's own receiver check, next to it.
        expect(receiverAccepts(secret, req.body, req.headers["x-webhook-signature"])).toBe(true);
        verified++;
      }
      console.info(`standardwebhooks: ${verified}/200 real deliveries verified with new Webhook(secret)`);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it("a secret generated before in base64url (with - and _) keeps its key: same signatures as before", async () => {
    const receiver = await startHttpsReceiver();
    try {
      const { organizationId, owner } = await createOrg(t.db.knex);
      const orgId = await orgNumber(t.db.knex, organizationId);
      let hook = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/legacy`);
      while (!/[-_]/.test(hook.secret)) {
        await t.db.knex("webhook_endpoints").where({ id: hook.id }).delete();
        hook = await insertWebhook(t.db.knex, organizationId, `${receiver.url}/legacy`);
      }
      const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, owner.apiKey, {
        event: "course_completed",
        data: COURSE_COMPLETED,
      });
      expect(res.status).toBe(202);
      const [req] = await arrived(receiver, "/legacy", 1, 15_000);
      expect(req).toBeDefined();
      const body = req!.body.toString();
      expect(receiverAccepts(hook.secret, req!.body, req!.headers["x-webhook-signature"])).toBe(true);
      // The key is the base64url-decoded bytes, as before: the reference package verifies with them (raw form).
      const key = Buffer.from(hook.secret.slice(6), "base64url");
      const wh = new Webhook(key, { format: "raw" });
      expect(wh.verify(body, req!.headers as Record<string, string>)).toEqual(JSON.parse(body));
      const expected = createHmac("sha256", key)
        .update(`${req!.headers["webhook-id"]}.${req!.headers["webhook-timestamp"]}.${body}`)
        .digest("base64");
      expect(req!.headers["webhook-signature"]).toBe(`v1,${expected}`);
    } finally {
      await receiver.close();
    }
  }, 30_000);
});
